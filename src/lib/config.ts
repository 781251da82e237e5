/**
 * @module
 * The gateway's bindings, parsed once with zod. An environment whose keys are not configured is
 * simply unavailable (503 where it is used); it never crashes the Worker.
 */
import { z } from "zod";

/**
 * What wrangler binds to the gateway: the `Env` that `wrangler types` generates from wrangler.toml
 * (worker-configuration.d.ts), with the optional vars and secrets of `src/optional-bindings.d.ts`.
 */
export type Bindings = Env;

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
