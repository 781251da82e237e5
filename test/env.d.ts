/**
 * The tests' `env` (`import { env } from "cloudflare:workers"`), typed once: the gateway's generated
 * `Env` (../worker-configuration.d.ts, with ../src/optional-bindings.d.ts), narrowed to what the
 * gateway and corpus projects of vitest.config.ts always bind, so no test casts `env`.
 */
declare namespace Cloudflare {
  interface Env {
    /** The sandbox, attached as an auxiliary Worker: the tests are always local. */
    SANDBOX: Fetcher;
    /** The "old" sealing key of the rotation test (`TEST_PREVIOUS_SECRETS_KEY`). */
    SECRETS_KEY_PREVIOUS?: string;
    /** "warn" in every project that runs the gateway. */
    LOG_LEVEL: string;
    /** The tests' short webhook retry schedule (`TEST_EVENT_RETRY_SCHEDULE`). */
    EVENT_RETRY_SCHEDULE: string;
    /** "200" in the corpus project only; the API's limit elsewhere. */
    RATE_LIMIT_PER_SECOND?: string;
  }
}
