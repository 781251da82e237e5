/**
 * @module
 * The gateway's bindings, parsed once with zod. An environment whose keys are not configured is
 * simply unavailable (503 where it is used); it never crashes the Worker.
 */
import { z } from "zod";
import type { Directory } from "../durable/directory";
import type { RateGovernor } from "../durable/rate-governor";
import type { Tenant } from "../durable/tenant";
import type { RunParams } from "./orders/runs";

/**
 * What wrangler binds to the gateway. Secrets are optional here: their absence is a state, not a
 * crash.
 */
export interface Bindings {
  TENANT: DurableObjectNamespace<Tenant>;
  RATE_GOVERNOR: DurableObjectNamespace<RateGovernor>;
  DIRECTORY: DurableObjectNamespace<Directory>;
  /** One durable run per shop order (workflows/order-to-invoice.ts). */
  ORDER_TO_INVOICE: Workflow<RunParams>;
  /** Upstream calls per second per environment; the API's limit (10) when unset. */
  RATE_LIMIT_PER_SECOND?: string;
  /**
   * Share of the limit the governor leaves unused as a jitter margin, 0 ≤ m < 1, for a path with
   * more jitter than the one measured (default `PACING_MARGIN` in `durable/rate-governor.ts`).
   */
  RATE_PACING_MARGIN?: string;
  /**
   * Most rows one `Prefer: pages=all` answer may hold, a whole number ≥ 1; 50 000 when unset
   * (`lib/shaping/all-pages.ts`). A caller may ask for less with `Prefer: max-rows=N`, never more.
   */
  PAGES_ALL_MAX_ROWS?: string;
  VERSION?: string;
  /** `debug`, `info` (default), `warn`, `error` or `silent` (see `lib/log.ts`). */
  LOG_LEVEL?: string;
  ADMIN_TOKEN?: string;
  SECRETS_KEY?: string;
  SECRETS_KEY_PREVIOUS?: string;
  DEMO_API_BASE_URL?: string;
  DEMO_AUTH_URL?: string;
  DEMO_APPLICATION_KEY?: string;
  DEMO_SUBSCRIPTION_KEY?: string;
  PRODUCTION_API_BASE_URL?: string;
  PRODUCTION_AUTH_URL?: string;
  PRODUCTION_APPLICATION_KEY?: string;
  PRODUCTION_SUBSCRIPTION_KEY?: string;
  /** Local development only: the sandbox Worker, reached instead of the network. */
  SANDBOX?: Fetcher;
  /**
   * Rate limiting binding: failed authentications and `/healthz` reads per client address
   * (`middleware/inbound-limit.ts`).
   */
  INBOUND_LIMIT?: RateLimit;
}

/** The API's limit per subscription key, per second. */
export const API_LIMIT_PER_SECOND = 10;

/**
 * The limit the environments' upstream calls are paced to: `RATE_LIMIT_PER_SECOND` when it is a
 * positive whole number, else the API's.
 */
export function rateLimitPerSecond(env: Pick<Bindings, "RATE_LIMIT_PER_SECOND">): number {
  const n = Number(env.RATE_LIMIT_PER_SECOND);
  return Number.isInteger(n) && n > 0 ? n : API_LIMIT_PER_SECOND;
}

/** The two environments of the API. */
export const Environment = z.enum(["demo", "production"]);
export type Environment = z.output<typeof Environment>;

/**
 * Upstream URLs must be HTTPS; the only exception is the local sandbox binding, which never leaves
 * the process.
 */
const HttpsUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" });

const EnvironmentConfig = z.object({
  apiBaseUrl: HttpsUrl,
  authUrl: HttpsUrl,
  // The user-id of a Basic header: visible ASCII (btoa takes Latin-1 only) and no colon (it ends
  // the user-id).
  applicationKey: z
    .string()
    .regex(/^[\x21-\x39\x3b-\x7e]+$/, "must be visible ASCII without a colon"),
  subscriptionKey: z.string().min(1),
});
export type EnvironmentConfig = z.output<typeof EnvironmentConfig>;

/**
 * The configuration of one environment, or why it is unavailable (a list of missing or bad names,
 * never their values).
 */
export function environmentConfig(
  b: Bindings,
  environment: Environment,
): { ok: true; config: EnvironmentConfig } | { ok: false; missing: string[]; detail: string } {
  const prefix = environment === "demo" ? "DEMO_" : "PRODUCTION_";
  const raw = {
    apiBaseUrl: b[`${prefix}API_BASE_URL`],
    authUrl: b[`${prefix}AUTH_URL`],
    applicationKey: b[`${prefix}APPLICATION_KEY`],
    subscriptionKey: b[`${prefix}SUBSCRIPTION_KEY`],
  };
  const parsed = EnvironmentConfig.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  const names: Record<string, string> = {
    apiBaseUrl: "API_BASE_URL",
    authUrl: "AUTH_URL",
    applicationKey: "APPLICATION_KEY",
    subscriptionKey: "SUBSCRIPTION_KEY",
  };
  const missing = parsed.error.issues.map(
    (i) => prefix + (names[String(i.path[0])] ?? String(i.path[0])),
  );
  return {
    ok: false,
    missing,
    detail: `The ${environment} environment is not configured (missing or invalid: ${missing.join(", ")}).`,
  };
}

/**
 * The development values committed in wrangler.toml `[vars]`. They are public, so they guard
 * nothing; they are harmless only where everything upstream is the sandbox.
 */
const COMMITTED_DEVELOPMENT_VALUES = {
  ADMIN_TOKEN: "local-admin-token",
  SECRETS_KEY: "bGVkZ2VyZ2F0ZS1sb2NhbC1kZXZlbG9wbWVudC1rZXk=",
} as const;

/**
 * The names of the secrets that still hold their committed development value outside local
 * development; empty when none does, or when the Worker is local.
 *
 * "Local" is the SANDBOX service binding being bound. That is the fact that makes the public values
 * harmless: with it, every upstream call goes to the sandbox (`upstream/transport.ts`), so the
 * public token reaches sandbox data only. `[env.production]` inherits neither `[vars]` nor
 * `[[services]]`, so a production deploy has no SANDBOX by construction. An explicit `LOCAL=true`
 * var would be a second switch that a copied `[vars]` block carries into production, where it would
 * say "local" while the Worker talks to the real API.
 */
export function committedSecretsInUse(b: Bindings): (keyof typeof COMMITTED_DEVELOPMENT_VALUES)[] {
  if (b.SANDBOX) return [];
  return (["ADMIN_TOKEN", "SECRETS_KEY"] as const).filter(
    (name) => b[name] === COMMITTED_DEVELOPMENT_VALUES[name],
  );
}
