#!/usr/bin/env node
// `npm run build` (and `prepack`, so `npm pack` always ships a fresh build): the package's dist/.
//
//   dist/sandbox/worker.js   the sandbox Worker, one ES module (esbuild of sandbox/src/index.ts)
//   dist/sandbox/attach.js   `ledgergate/sandbox`: sandbox/attach.ts with sandbox/wrangler.toml's
//                            settings injected, so the package holds no second copy of them
//   dist/client/index.js     `ledgergate/client`: client/index.ts (openapi-fetch stays a
//   dependency) dist/**/*.d.ts           declarations by tsc (tsconfig.package.json), plus the
//   generated types
//
// dist/ is build output, never committed (.gitignore).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { SANDBOX_BUNDLE_OPTIONS } from "./sandbox-bundle.ts";
import { readSandboxConfig } from "./sandbox-config.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");

rmSync(dist, { recursive: true, force: true });

// The same bundle the repository's own tests attach (scripts/sandbox-bundle.ts).
buildSync({
  ...SANDBOX_BUNDLE_OPTIONS,
  entryPoints: [join(root, "sandbox/src/index.ts")],
  outfile: join(dist, "sandbox/worker.js"),
  legalComments: "none",
});

// What wrangler itself reads from sandbox/wrangler.toml (scripts/sandbox-config.ts, as
// vitest.config.ts does).
const sandboxConfig = readSandboxConfig();
// sandbox/attach.ts types exactly these bindings; a change in wrangler.toml must change it too.
if (Object.keys(sandboxConfig.durableObjects).sort().join() !== "CLIENTS,PLATFORM,STRIPE,VIPPS") {
  throw new Error(
    `sandbox/wrangler.toml binds Durable Objects ${Object.keys(sandboxConfig.durableObjects).join(", ")}; sandbox/attach.ts expects PLATFORM, CLIENTS, STRIPE and VIPPS`,
  );
}

buildSync({
  entryPoints: [join(root, "sandbox/attach.ts")],
  outfile: join(dist, "sandbox/attach.js"),
  // With sandbox-client.ts and the client it builds on; openapi-fetch stays an import.
  bundle: true,
  packages: "external",
  format: "esm",
  platform: "node",
  target: "node20",
  define: { __LEDGERGATE_SANDBOX_CONFIG__: JSON.stringify(sandboxConfig) },
  logLevel: "warning",
});
buildSync({
  entryPoints: [join(root, "client/index.ts")],
  outfile: join(dist, "client/index.js"),
  format: "esm",
  platform: "neutral",
  target: "es2022",
  logLevel: "warning",
});

// Declarations. The generated path types are already .d.ts files: tsc does not copy those, so they
// go next to dist/client/index.d.ts, which imports them as ./generated/*.js.
execFileSync(
  join(root, "node_modules/.bin/tsc"),
  [
    "-p",
    join(root, "tsconfig.package.json"),
    "--noEmit",
    "false",
    "--declaration",
    "--emitDeclarationOnly",
    "--outDir",
    dist,
  ],
  { stdio: "inherit" },
);
mkdirSync(join(dist, "client/generated"), { recursive: true });
cpSync(join(root, "client/generated"), join(dist, "client/generated"), { recursive: true });
