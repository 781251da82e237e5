import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { buildSync } from "esbuild";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { defineConfig } from "vitest/config";

// Two projects, both inside workerd: the sandbox Worker on its own, and the gateway with the sandbox
// attached as an auxiliary Worker. Auxiliary Workers must be plain JavaScript, so the sandbox is
// bundled once here; its bindings come from its own wrangler.toml, so nothing is written twice.
const SANDBOX_BUNDLE = ".build/sandbox/index.js";
/** 32 bytes, base64: the "old" sealing key of the rotation test (test/durable/tenant/secrets.test.ts). */
export const TEST_PREVIOUS_SECRETS_KEY = btoa("ledgergate-previous-test-key-32b");
buildSync({
  entryPoints: ["sandbox/src/index.ts"],
  outfile: SANDBOX_BUNDLE,
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2024",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["module", "main"],
  external: ["cloudflare:*"],
  logLevel: "warning",
});
// wrangler types these options loosely; these are the fields the sandbox's wrangler.toml sets.
const workerOptions = unstable_getMiniflareWorkerOptions("./sandbox/wrangler.toml").workerOptions as {
  compatibilityDate?: string;
  compatibilityFlags?: string[];
  bindings?: Record<string, string>;
  durableObjects?: Record<string, { className: string; useSQLite?: boolean }>;
};
// Only what the sandbox declares; the rest of wrangler's output is source options for unbundled code.
const sandbox = {
  name: "ledgergate-sandbox",
  modules: true,
  scriptPath: SANDBOX_BUNDLE,
  compatibilityDate: workerOptions.compatibilityDate,
  compatibilityFlags: workerOptions.compatibilityFlags,
  bindings: { ...workerOptions.bindings, SANDBOX_CONTROL: "true" },
  durableObjects: workerOptions.durableObjects,
};

export default defineConfig({
  test: {
    projects: [
      {
        // Pure library modules (order adapters, money): the Workers runtime, no bindings needed.
        plugins: [cloudflareTest({ miniflare: { compatibilityDate: "2026-11-01" } })],
        test: { name: "lib", include: ["test/lib/**/*.test.ts"] },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./sandbox/wrangler.toml" }, miniflare: { bindings: { SANDBOX_CONTROL: "true" } } })],
        test: { name: "sandbox", include: ["test/sandbox/**/*.test.ts"] },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            // A previous sealing key, so the tests can prove records sealed under it still open.
            miniflare: { bindings: { SECRETS_KEY_PREVIOUS: TEST_PREVIOUS_SECRETS_KEY }, workers: [sandbox] },
          }),
        ],
        // One file at a time: the files share the sandbox, and with it the rate limit they measure.
        test: { name: "gateway", include: ["test/{routes,durable,workflows}/**/*.test.ts"], fileParallelism: false, testTimeout: 60_000 },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            // The order corpus proves amounts, not throughput (npm run bench measures that at 10 req/s):
            // both sides lift the rate limit so 144 orders run in seconds.
            miniflare: { bindings: { RATE_LIMIT_PER_SECOND: "200" }, workers: [sandbox] },
          }),
        ],
        test: { name: "corpus", include: ["test/corpus/**/*.test.ts"], testTimeout: 180_000 },
      },
    ],
  },
});
