#!/usr/bin/env node
// `npm test` (and `npm run deploy:check`): the production Worker built exactly as `npm run deploy`
// builds it, `wrangler deploy --dry-run --env production`, into .build/deploy/. Offline and with no
// login: a dry run stops before it talks to Cloudflare, and wranglerEnv() turns off its metrics and
// `cf` calls. Fails when the Worker does not build, or when its gzipped size is over the paid plan's
// limit; otherwise prints its size in one line.
//
// The size is measured as wrangler measures it for that limit ("Total Upload"): the uploaded
// modules, concatenated, then gzipped. The source map it writes beside them is not uploaded.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { bin, root, wranglerEnv } from "./wrangler-env.mjs";

/** Cloudflare's limit on a Worker's gzipped size on the paid plan (the free plan's is 3 MiB). */
const MAX_GZIPPED_BYTES = 10 * 1024 * 1024;
const KIB = 1024;
const MAIN_MODULE = "index.js";

const started = performance.now();
const OUTDIR = ".build/deploy";
const outdir = join(root, OUTDIR);
// A module left from an earlier build (the text modules' names carry a content hash) would count.
rmSync(outdir, { recursive: true, force: true });

const args = ["deploy", "--dry-run", "--env", "production", "--outdir", OUTDIR];
try {
  await promisify(execFile)(join(bin, "wrangler"), args, {
    cwd: root,
    env: wranglerEnv({ NO_COLOR: "1", FORCE_COLOR: "0" }),
    maxBuffer: 64 * 1024 * 1024,
  });
} catch (err) {
  console.error(
    `deploy-check: wrangler ${args.join(" ")} failed\n${err.stdout ?? ""}${err.stderr ?? err}`,
  );
  process.exit(1);
}

// What wrangler uploads: the entry module and the modules it imports (here the /docs page's
// script, as text), not the source map or the README it writes beside them.
const names = readdirSync(outdir).filter((n) => n !== "README.md" && !n.endsWith(".map"));
if (!names.includes(MAIN_MODULE)) {
  console.error(`deploy-check: wrangler wrote no ${MAIN_MODULE} to ${OUTDIR}`);
  process.exit(1);
}
// wrangler's order: the other modules, then the entry.
const modules = [...names.filter((n) => n !== MAIN_MODULE).sort(), MAIN_MODULE].map((name) => ({
  // Text modules are named <content hash>-<file name>.
  name: name.replace(/^[0-9a-f]{40}-/, ""),
  bytes: readFileSync(join(outdir, name)),
}));
const raw = modules.reduce((sum, m) => sum + m.bytes.length, 0);
const gzipped = gzipSync(Buffer.concat(modules.map((m) => m.bytes))).length;

const kib = (bytes) => `${(bytes / KIB).toFixed(0)} KiB`;
const share = (part, whole) => `${((part / whole) * 100).toFixed(0)}%`;
const parts = modules
  .map(
    (m) =>
      `${m.name} ${share(m.bytes.length, raw)} (${share(gzipSync(m.bytes).length, gzipped)} gzipped)`,
  )
  .join(", ");
const summary =
  `production Worker ${kib(raw)}, ${kib(gzipped)} gzipped (${share(gzipped, MAX_GZIPPED_BYTES)} ` +
  `of the ${MAX_GZIPPED_BYTES / KIB / KIB} MiB limit): ${parts}; built in ` +
  `${((performance.now() - started) / 1000).toFixed(1)} s`;
if (gzipped > MAX_GZIPPED_BYTES) {
  console.error(`deploy-check: over the limit: ${summary}`);
  process.exit(1);
}
console.log(`deploy-check: ${summary}`);
