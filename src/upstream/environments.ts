/**
 * @module The API's two environments and their roots and keys (`DEMO_`/`PRODUCTION_` bindings); a
 * missing one is a value naming what is at fault, never a throw.
 */
import { z } from "zod";

export const Environment = z.enum(["demo", "production"]);
export type Environment = z.output<typeof Environment>;

/** HTTPS only; the one exception, the local sandbox binding, never leaves the process. */
const HttpsUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" });

const EnvironmentConfig = z.object({
  apiBaseUrl: HttpsUrl,
  authUrl: HttpsUrl,
  // The user-id of a Basic header: visible ASCII (btoa takes Latin-1 only), no colon (it ends it).
  applicationKey: z
    .string()
    .regex(/^[\x21-\x39\x3b-\x7e]+$/, "must be visible ASCII without a colon"),
  subscriptionKey: z.string().min(1),
});
export type EnvironmentConfig = z.output<typeof EnvironmentConfig>;

/** The missing or bad names, never their values. */
export type EnvironmentAvailability =
  { ok: true; config: EnvironmentConfig } | { ok: false; missing: string[]; detail: string };

const BINDING_NAMES = {
  apiBaseUrl: "API_BASE_URL",
  authUrl: "AUTH_URL",
  applicationKey: "APPLICATION_KEY",
  subscriptionKey: "SUBSCRIPTION_KEY",
} as const;

/**
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
