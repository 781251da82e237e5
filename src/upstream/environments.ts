/**
 * @module
 * The API's two environments, and what makes one usable: its roots and its keys, read from the
 * `DEMO_`/`PRODUCTION_` bindings by `kernel/config.ts`. An environment that lacks them is a value
 * (`ok: false` with the names at fault), never an exception.
 */
import { z } from "zod";

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
/** A usable environment's roots and keys. */
export type EnvironmentConfig = z.output<typeof EnvironmentConfig>;

/**
 * One environment's configuration, or why it is unavailable (a list of missing or bad names, never
 * their values).
 */
export type EnvironmentAvailability =
  { ok: true; config: EnvironmentConfig } | { ok: false; missing: string[]; detail: string };

/** The binding behind each field, after the environment's prefix. */
const BINDING_NAMES = {
  apiBaseUrl: "API_BASE_URL",
  authUrl: "AUTH_URL",
  applicationKey: "APPLICATION_KEY",
  subscriptionKey: "SUBSCRIPTION_KEY",
} as const;

/**
 * Parses one environment's four bindings.
 *
 * @param environment Which environment: its bindings are the `DEMO_` or `PRODUCTION_` ones.
 * @param bindings The raw values by binding name (unknown: a secret may be unset or mistyped).
 * @returns The environment's configuration, or the names at fault with a detail for a 503.
 * @example
 * environmentAvailability("demo", env); // { ok: false, missing: ["DEMO_AUTH_URL"], detail: "…" }
 */
export function environmentAvailability(
  environment: Environment,
  bindings: Partial<Record<string, unknown>>,
): EnvironmentAvailability {
  const prefix = environment === "demo" ? "DEMO_" : "PRODUCTION_";
  const raw = Object.fromEntries(
    Object.entries(BINDING_NAMES).map(([field, name]) => [field, bindings[prefix + name]]),
  );
  const parsed = EnvironmentConfig.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  const names: Partial<Record<string, string>> = BINDING_NAMES;
  const missing = parsed.error.issues.map(
    (i) => prefix + (names[String(i.path[0])] ?? String(i.path[0])),
  );
  return {
    ok: false,
    missing,
    detail: `The ${environment} environment is not configured (missing or invalid: ${missing.join(", ")}).`,
  };
}
