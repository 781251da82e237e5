// Where the project's own tools are, and the environment every local wrangler run gets: the
// project's node_modules/.bin first on PATH, so wrangler runs on the project's own Node (package
// `node` in devDependencies) whatever the system Node is, and no request to Cloudflare's
// metrics or `cf` endpoints (a machine with no internet would wait on them).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root folder. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The project's node_modules/.bin. */
export const bin = join(root, "node_modules", ".bin");

/** `process.env` for a wrangler child process, with `extra` on top. */
export function wranglerEnv(extra = {}) {
  return {
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_SEND_METRICS: "false",
    ...extra,
  };
}
