/**
 * @module The gateway's vars and secrets, parsed with zod once per bindings object into one typed
 * `Config`. Nothing here throws: an environment without keys is unavailable (503 where used), a bad
 * setting a default.
 */
import { z } from "zod";
import { environmentAvailability, type Environment } from "../upstream/environments";
import { DEFAULT_RETRY_SCHEDULE, parseSchedule } from "../events/schedule";
import { parseExtraOperations } from "../v2/extra-operations";

export {
  Environment,
  type EnvironmentAvailability,
  type EnvironmentConfig,
} from "../upstream/environments";

/** What wrangler binds (`Env`, plus `src/optional-bindings.d.ts`); read it through `readConfig`. */
export type Bindings = Env;

export const API_LIMIT_PER_SECOND = 10;
/** The watcher's default share: 2 of 10 places, a poll cycle of 20 tenants in under a minute. */
export const DEFAULT_WATCHER_BUDGET_SHARE = 0.2;

export const DEFAULT_PAGES_ALL_MAX_ROWS = 50_000;

export const STRIPE_API_ROOT = "https://api.stripe.com";
/** Vipps MobilePay's production root: the Report API has no test environment. */
export const VIPPS_API_ROOT = "https://api.vipps.no";

/** wrangler.toml's public development values: harmless only where all upstream is the sandbox. */
const COMMITTED_DEVELOPMENT_VALUES = {
  ADMIN_TOKEN: "local-admin-token",
  SECRETS_KEY: "bGVkZ2VyZ2F0ZS1sb2NhbC1kZXZlbG9wbWVudC1rZXk=",
} as const;

export const DEFAULT_WATCHER_CYCLE_SECONDS = 30;
/** Longer than any step's silence while its engine moves it: 6 retries backing off ≈ 2 min. */
export const DEFAULT_RUN_STALL_SECONDS = 600;
/** Longer than any attempt (15 s) and any queue's wait for its consumer under a backlog. */
export const DEFAULT_EVENT_QUEUE_LEASE_SECONDS = 900;

function defaultWaits(): number[] {
  const parsed = parseSchedule(DEFAULT_RETRY_SCHEDULE);
  return parsed.ok ? parsed.value : [];
}

const Setting = z.string().min(1).optional().catch(undefined);
/** A whole number ≥ 1; a misspelt limit falls back to the default rather than stop the Worker. */
const Count = (fallback: number) =>
  z.string().transform(Number).pipe(z.int().positive()).catch(fallback);
const LogLevel = z.enum(["debug", "info", "warn", "error", "silent"]);
/** What the request log stores per call: rows and counters, counters only (no call data), none. */
export const RequestLogMode = z.enum(["calls", "counters", "off"]);
export type RequestLogMode = z.output<typeof RequestLogMode>;

/** Keyed by `Env`'s names: one in neither wrangler.toml nor the optional bindings won't compile. */
const ConfigBindings = z.object({
  VERSION: z.string().catch("dev"),
  /** A typo falls back to `info`: it must not silence production. */
  LOG_LEVEL: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(LogLevel)
    .catch("info"),
  RATE_LIMIT_PER_SECOND: Count(API_LIMIT_PER_SECOND),
  /** Unset: the governor's measured default (`PACING_MARGIN` in `upstream/rate-governor.ts`). */
  RATE_PACING_MARGIN: z
    .string()
    .min(1)
    .transform(Number)
    .pipe(z.number().min(0).lt(1))
    .optional()
    .catch(undefined),
  /** 0: no polling. Above half, the first class's reserve would be smaller than the watcher's. */
  WATCHER_BUDGET_SHARE: z
    .string()
    .min(1)
    .transform(Number)
    .pipe(z.number().min(0).max(0.5))
    .catch(DEFAULT_WATCHER_BUDGET_SHARE),
  PAGES_ALL_MAX_ROWS: Count(DEFAULT_PAGES_ALL_MAX_ROWS),
  /** Unset: a batch of runs waits 3 s, or 30 s while calls queue (`orders/tenant/shared-calls.ts`). */
  ORDER_BATCH_WAIT_MS: z
    .string()
    .min(1)
    .transform(Number)
    .pipe(z.int().min(0))
    .nullable()
    .catch(null),
  // Unset: `calls`. Set but unreadable: `counters`, since whoever set it meant to store less, and
  // failed calls' bodies are personal data.
  REQUEST_LOG: z
    .string()
    .optional()
    .transform((s) => s?.trim().toLowerCase())
    .pipe(RequestLogMode.optional())
    .transform((m) => m ?? "calls")
    .catch("counters"),
  EVENT_RETRY_SCHEDULE: z
    .string()
    .transform((text, ctx) => {
      const parsed = parseSchedule(text);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    })
    .catch(() => defaultWaits()),
  WATCHER_CYCLE_SECONDS: Count(DEFAULT_WATCHER_CYCLE_SECONDS),
  RUN_STALL_SECONDS: Count(DEFAULT_RUN_STALL_SECONDS),
  EVENT_QUEUE_LEASE_SECONDS: Count(DEFAULT_EVENT_QUEUE_LEASE_SECONDS),
  EVENT_ENDPOINTS_ALLOW_LOOPBACK: z.string().optional().catch(undefined),
  V2_EXTRA_OPERATIONS: z.string().optional().catch(undefined),
  MCP_ALLOWED_ORIGINS: z.string().optional().catch(undefined),
  ADMIN_TOKEN: Setting,
  SECRETS_KEY: Setting,
  SECRETS_KEY_PREVIOUS: Setting,
  DEMO_API_BASE_URL: z.unknown().optional(),
  DEMO_AUTH_URL: z.unknown().optional(),
  DEMO_APPLICATION_KEY: z.unknown().optional(),
  DEMO_SUBSCRIPTION_KEY: z.unknown().optional(),
  PRODUCTION_API_BASE_URL: z.unknown().optional(),
  PRODUCTION_AUTH_URL: z.unknown().optional(),
  PRODUCTION_APPLICATION_KEY: z.unknown().optional(),
  PRODUCTION_SUBSCRIPTION_KEY: z.unknown().optional(),
  /** Null unless https: the payouts that need it then fail naming the var, not call elsewhere. */
  STRIPE_API_BASE_URL: z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === "" ? STRIPE_API_ROOT : s.trim()))
    .pipe(z.url({ protocol: /^https$/ }).transform((s) => s.replace(/\/+$/, "")))
    .nullable()
    .catch(null),
  /** As STRIPE_API_BASE_URL: null unless https, and Vipps is not read until it is. */
  VIPPS_API_BASE_URL: z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === "" ? VIPPS_API_ROOT : s.trim()))
    .pipe(z.url({ protocol: /^https$/ }).transform((s) => s.replace(/\/+$/, "")))
    .nullable()
    .catch(null),
  /** Bound only in local development. */
  SANDBOX: z.unknown().optional(),
} satisfies Partial<Record<keyof Bindings, z.ZodType>>);

const GatewayConfig = ConfigBindings.transform((b) => ({
  version: b.VERSION,
  logLevel: b.LOG_LEVEL,
  rateLimitPerSecond: b.RATE_LIMIT_PER_SECOND,
  ratePacingMargin: b.RATE_PACING_MARGIN,
  watcherBudgetShare: b.WATCHER_BUDGET_SHARE,
  pagesAllMaxRows: b.PAGES_ALL_MAX_ROWS,
  orderBatchWaitMs: b.ORDER_BATCH_WAIT_MS,
  requestLog: b.REQUEST_LOG,
  eventRetryWaits: b.EVENT_RETRY_SCHEDULE,
  watcherFloorMs: b.WATCHER_CYCLE_SECONDS * 1000,
  runStallMs: b.RUN_STALL_SECONDS * 1000,
  eventQueueLeaseMs: b.EVENT_QUEUE_LEASE_SECONDS * 1000,
  // `http://` loopback webhook endpoints only if the var says `true` *and* SANDBOX is bound: a
  // `[vars]` block copied into a deploy carries the var, never the binding.
  eventEndpointsAllowLoopback: b.EVENT_ENDPOINTS_ALLOW_LOOPBACK === "true" && Boolean(b.SANDBOX),
  v2ExtraOperations: parseExtraOperations(b.V2_EXTRA_OPERATIONS),
  mcpAllowedOrigins: (b.MCP_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean),
  adminToken: b.ADMIN_TOKEN,
  secretsKey: b.SECRETS_KEY,
  // "…Key", not "…Previous": the logger redacts fields by a secret-looking name.
  previousSecretsKey: b.SECRETS_KEY_PREVIOUS,
  stripeApiBaseUrl: b.STRIPE_API_BASE_URL,
  vippsApiBaseUrl: b.VIPPS_API_BASE_URL,
  environments: {
    demo: environmentAvailability("demo", b),
    production: environmentAvailability("production", b),
  } satisfies Record<Environment, unknown>,
  // Secrets still at their committed development value, unless local: SANDBOX is bound, which
  // `[env.production]` never inherits, unlike a `LOCAL=true` var in a copied `[vars]` block.
  committedSecretsInUse: b.SANDBOX
    ? []
    : (["ADMIN_TOKEN", "SECRETS_KEY"] as const).filter(
        (name) => b[name] === COMMITTED_DEVELOPMENT_VALUES[name],
      ),
}));

export type Config = z.output<typeof GatewayConfig>;

/** Keyed by the bindings object, not a module variable: other bindings never get a stale one. */
const parsed = new WeakMap<object, Config>();

/**
 * The configuration of `env`, parsed on first use and cached while `env` lives. Never throws.
 * @example
 * const demo = readConfig(this.env).environments.demo;
 * if (!demo.ok) throw new Problem("unavailable", demo.detail);
 */
export function readConfig(env: Partial<Bindings>): Config {
  let config = parsed.get(env);
  if (!config) {
    config = GatewayConfig.parse(env);
    parsed.set(env, config);
  }
  return config;
}
