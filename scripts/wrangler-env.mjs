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

/** The ports `npm start` serves on when no variable says otherwise. */
const DEFAULT_PORTS = { gateway: "8787", sandbox: "8788" };

/**
 * Where the local Workers answer, for every script that starts or calls them (`npm start`, `npm run
 * demo:order`, the bench): one set of variables, LEDGERGATE_GATEWAY_PORT and
 * LEDGERGATE_SANDBOX_PORT, with the URLs derived from them on 127.0.0.1. The demo's former names,
 * LEDGERGATE_URL and SANDBOX_URL, still work when the new one is unset, with a line saying so
 * (they may point at another host, which a port cannot).
 *
 * @param env - the environment to read (default `process.env`)
 * @param warn - where the deprecation line goes (default `console.error`)
 * @returns `{ gatewayPort, sandboxPort, gateway, sandbox }`, URLs without a trailing slash
 * @example const { gateway } = localAddresses(); await fetch(`${gateway}/healthz`);
 */
export function localAddresses(env = process.env, warn = (line) => console.error(line)) {
  const pick = (portName, urlName, fallback) => {
    const port = env[portName]?.trim();
    if (port) return { port, url: `http://127.0.0.1:${port}` };
    const url = env[urlName]?.trim().replace(/\/+$/, "");
    if (url) {
      warn(
        `${urlName} is deprecated: set ${portName} instead (the URL is http://127.0.0.1:<port>).`,
      );
      return { port: new URL(url).port || fallback, url };
    }
    return { port: fallback, url: `http://127.0.0.1:${fallback}` };
  };
  const gateway = pick("LEDGERGATE_GATEWAY_PORT", "LEDGERGATE_URL", DEFAULT_PORTS.gateway);
  const sandbox = pick("LEDGERGATE_SANDBOX_PORT", "SANDBOX_URL", DEFAULT_PORTS.sandbox);
  return {
    gatewayPort: gateway.port,
    sandboxPort: sandbox.port,
    gateway: gateway.url,
    sandbox: sandbox.url,
  };
}
