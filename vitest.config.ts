import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Two projects, both inside workerd: the sandbox Worker on its own, and the gateway with the sandbox
// attached as an auxiliary Worker (built once by test/global-setup.ts).
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./sandbox/wrangler.toml" } })],
        test: { name: "sandbox", include: ["test/sandbox/**/*.test.ts"] },
      },
    ],
  },
});
