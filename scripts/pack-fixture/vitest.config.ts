// An integrator's vitest config, as docs/sandbox.md shows it: miniflare only (no wrangler.toml),
// the sandbox from the installed package attached as an auxiliary Worker and bound to the test
// Worker as SANDBOX.
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { SANDBOX_COMPATIBILITY_DATE, SANDBOX_WORKER_NAME, sandboxWorker } from "ledgergate/sandbox";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      miniflare: {
        compatibilityDate: SANDBOX_COMPATIBILITY_DATE,
        serviceBindings: { SANDBOX: SANDBOX_WORKER_NAME },
        workers: [sandboxWorker()],
      },
    }),
  ],
});
