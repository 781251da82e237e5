#!/usr/bin/env node
// The package as an integrator gets it: `npm pack` (which builds, see `prepack`), install the
// tarball into a scratch project outside the repository, type-check that project's test against the
// installed `ledgergate/client` types, and run it with @cloudflare/vitest-plugin: the sandbox
// attached from `ledgergate/sandbox` by a miniflare-only config, a client of it from
// `sandboxClient`, and calls through its typed v2 client, as docs/sandbox.md shows them
// (scripts/pack-fixture/). The type check also proves typos in bodies and queries do not compile.
//
// Quiet on success (one summary line); on failure prints the failing step's output, keeps the
// scratch folder for a look, and exits non-zero. `--keep` keeps it on success too.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { bin, root, wranglerEnv } from "./wrangler-env.mjs";

const run = promisify(execFile);
const keep = process.argv.includes("--keep");
const started = performance.now();
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1);

// The project's own Node (package `node` in devDependencies) runs every tool, in the scratch
// project too, whatever the system Node is.
const env = wranglerEnv({ NO_COLOR: "1", FORCE_COLOR: "0" });

const work = mkdtempSync(join(tmpdir(), "ledgergate-pack-"));
const scratch = join(work, "project");

async function step(name, file, args, cwd) {
  try {
    return await run(file, args, { cwd, env: { ...env, PWD: cwd }, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    console.error(
      `pack-check: ${name} failed (scratch kept in ${work})\n${err.stdout ?? ""}${err.stderr ?? ""}`,
    );
    process.exit(1);
  }
}

// 1. Pack. The file list is checked here: only the build output and package.json, never
// secrets (.dev.vars), tests, sources or local state (.wrangler). `prepack` prints the build's
// banner on stdout before npm's JSON, so the JSON is read from its "[".
const packOut = (
  await step("npm pack", "npm", ["pack", "--json", "--pack-destination", work], root)
).stdout;
const packed = JSON.parse(packOut.slice(packOut.search(/^\[/m)))[0];
const stray = packed.files
  .map((f) => f.path)
  .filter((p) => !p.startsWith("dist/") && !/^(package\.json|README\.md|LICENSE)$/.test(p));
if (stray.length) {
  console.error(
    `pack-check: the tarball holds files outside dist/: ${stray.join(", ")} (scratch kept in ${work})`,
  );
  process.exit(1);
}

// 2. The scratch project: the tarball plus the test tooling, at this repository's locked versions.
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")).packages;
const locked = (name) => {
  const version = lock[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json`);
  return version;
};
const tooling = [
  "vitest",
  "@cloudflare/vitest-plugin",
  "@cloudflare/workers-types",
  "openapi-fetch",
];
cpSync(join(root, "scripts/pack-fixture"), scratch, { recursive: true });
writeFileSync(
  join(scratch, "package.json"),
  JSON.stringify(
    {
      name: "ledgergate-pack-check",
      private: true,
      type: "module",
      dependencies: { ledgergate: `file:../${packed.filename}` },
      devDependencies: Object.fromEntries(tooling.map((name) => [name, locked(name)])),
      // workerd and esbuild set up their platform binaries in install scripts (allowed here as in
      // this repository).
      allowScripts: { esbuild: true, workerd: true },
    },
    null,
    2,
  ),
);

// 3. Install. --prefer-offline: everything but the tarball is normally in npm's cache already (this
// repository installed the same versions), so the registry is asked only for what is missing.
const installStarted = performance.now();
await step(
  "npm install",
  "npm",
  ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
  scratch,
);
const installSeconds = seconds(installStarted);

// 4. Type-check the test against the installed package's types (this repository's tsc), then run
//    it.
await step(
  "tsc (scratch project)",
  join(bin, "tsc"),
  ["-p", join(scratch, "tsconfig.json")],
  scratch,
);
const testStarted = performance.now();
const resultsFile = join(work, "vitest-results.json");
const { stdout } = await step(
  "vitest (scratch project)",
  join(scratch, "node_modules/.bin/vitest"),
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${resultsFile}`],
  scratch,
);
const report = JSON.parse(readFileSync(resultsFile, "utf8"));
if (report.numTotalTests === 0 || report.numFailedTests > 0) {
  console.error(
    `pack-check: scratch vitest reported ${report.numFailedTests} failed of ${report.numTotalTests} (scratch kept in ${work})\n${stdout}`,
  );
  process.exit(1);
}

if (!keep) rmSync(work, { recursive: true, force: true });
console.log(
  `pack-check: ${packed.filename} (${packed.files.length} files, ${(packed.size / 1024).toFixed(0)} kB) installed in ${installSeconds} s; ` +
    `scratch vitest ${report.numPassedTests} passed in ${seconds(testStarted)} s; ${seconds(started)} s in all${keep ? ` (kept in ${work})` : ""}`,
);
