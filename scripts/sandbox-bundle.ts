/**
 * @module
 * How the sandbox Worker is bundled into one ES module, for the repository's own tests
 * (vitest.config.ts attaches it as an auxiliary Worker) and for the package (scripts/build.mjs,
 * `ledgergate/sandbox`): one set of options, so what integrators attach is what the tests attach.
 * Plain TypeScript that Node 24 runs as is (type stripping), imported by both.
 */
import type { BuildOptions } from "esbuild";

/**
 * esbuild options of the sandbox bundle, less its output path: workerd conditions, ES modules,
 * `cloudflare:*` left to the runtime.
 */
export const SANDBOX_BUNDLE_OPTIONS = {
  entryPoints: ["sandbox/src/index.ts"],
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2024",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["module", "main"],
  external: ["cloudflare:*"],
  logLevel: "warning",
} satisfies BuildOptions;
