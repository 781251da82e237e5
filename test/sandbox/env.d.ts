/**
 * The sandbox tests' `env` (`import { env } from "cloudflare:workers"`), typed once: the sandbox's
 * generated `SandboxEnv` (../../sandbox/worker-configuration.d.ts, with
 * ../../sandbox/src/optional-bindings.d.ts) and what the sandbox project of vitest.config.ts adds.
 */
declare namespace Cloudflare {
  interface Env {
    /** "true": the tests drive the sandbox through its control API. */
    SANDBOX_CONTROL: string;
  }
}
