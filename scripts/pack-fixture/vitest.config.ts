// An integrator's vitest config, as docs/sandbox.md shows it: the sandbox from the installed
// package, attached as an auxiliary Worker, and bound to the test Worker as ACCOUNTING_API.
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { SANDBOX_COMPATIBILITY_DATE, SANDBOX_WORKER_NAME, sandboxWorker } from "ledgergate/sandbox";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      miniflare: {
        compatibilityDate: SANDBOX_COMPATIBILITY_DATE,
        serviceBindings: { ACCOUNTING_API: SANDBOX_WORKER_NAME },
        workers: [sandboxWorker()],
      },
    }),
  ],
});
