/**
 * @module
 * The gateway's configuration: its vars and secrets parsed once per bindings object with zod, into
 * one typed `Config`. The door (`kernel/middleware/config.ts`) puts it on the context; Durable
 * Objects and the Workflow read it from their own `env` through the same `readConfig`. An
 * environment whose keys are not configured is simply unavailable (503 where it is used); it never
 * crashes the Worker, so nothing here throws.
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

/**
 * What wrangler binds to the gateway: the `Env` that `wrangler types` generates from wrangler.toml
 * (worker-configuration.d.ts), with the optional vars and secrets of `src/optional-bindings.d.ts`.
 * Code reads vars and secrets through `readConfig`, never from here.
 */
export type Bindings = Env;

/** The API's limit per subscription key, per second. */
export const API_LIMIT_PER_SECOND = 10;
/**
 * The watcher's share of the budget when `WATCHER_BUDGET_SHARE` is unset: a fifth of the limit over
 * the window, 2 of 10 places (issue 30), enough for a poll cycle of 20 tenants in under a minute.
 */
export const DEFAULT_WATCHER_BUDGET_SHARE = 0.2;

/**
 * Rows one `Prefer: pages=all` answer holds at most when `PAGES_ALL_MAX_ROWS` is unset: a few MB of
 * JSON, well inside a Worker's memory.
 */
export const DEFAULT_PAGES_ALL_MAX_ROWS = 50_000;

/** Stripe's API root in production (`STRIPE_API_BASE_URL` unset). */
export const STRIPE_API_ROOT = "https://api.stripe.com";

/**
 * The development values committed in wrangler.toml `[vars]`. They are public, so they guard
 * nothing; they are harmless only where everything upstream is the sandbox.
 */
const COMMITTED_DEVELOPMENT_VALUES = {
  ADMIN_TOKEN: "local-admin-token",
  SECRETS_KEY: "bGVkZ2VyZ2F0ZS1sb2NhbC1kZXZlbG9wbWVudC1rZXk=",
} as const;

/** The watcher's shortest cycle when `WATCHER_CYCLE_SECONDS` is unset, s (docs/events.md). */
export const DEFAULT_WATCHER_CYCLE_SECONDS = 30;

/** The default retry schedule's waits, s. */
function defaultWaits(): number[] {
  const parsed = parseSchedule(DEFAULT_RETRY_SCHEDULE);
  return parsed.ok ? parsed.value : [];
}

/** A var or secret: unset, empty or not a string all mean "not configured". */
const Setting = z.string().min(1).optional().catch(undefined);
/**
 * A whole number ≥ 1, or `fallback`: a misspelt limit falls back to the default rather than stop
 * the Worker (the variables were read this way before they were parsed here).
 */
const Count = (fallback: number) =>
  z.string().transform(Number).pipe(z.int().positive()).catch(fallback);
/** The levels `kernel/log.ts` knows; `silent` writes nothing. */
const LogLevel = z.enum(["debug", "info", "warn", "error", "silent"]);
/**
 * What the request log stores of each call (`request-log/record.ts`): `calls`, a row per call
 * and the counters; `counters`, the counters only (no path, status, error or body is stored, for an
 * operator who must not store call data); `off`, nothing (no write after a call at all).
 */
export const RequestLogMode = z.enum(["calls", "counters", "off"]);
export type RequestLogMode = z.output<typeof RequestLogMode>;

/**
 * The bindings the configuration is made of, by their names in `Env` (checked: a name that is
 * neither in wrangler.toml nor in `src/optional-bindings.d.ts` does not compile).
 */
const ConfigBindings = z.object({
  VERSION: z.string().catch("dev"),
  /** `debug`, `info` (default), `warn`, `error` or `silent`; a typo must not silence production. */
  LOG_LEVEL: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(LogLevel)
    .catch("info"),
  /** Upstream calls per second per environment; the API's limit when unset. */
  RATE_LIMIT_PER_SECOND: Count(API_LIMIT_PER_SECOND),
  /**
   * Share of the limit the governor leaves unused, 0 ≤ m < 1; unset means the governor's measured
   * default (`PACING_MARGIN` in `upstream/rate-governor.ts`, kept beside its measurement).
   */
  RATE_PACING_MARGIN: z
    .string()
    .min(1)
    .transform(Number)
    .pipe(z.number().min(0).lt(1))
    .optional()
    .catch(undefined),
  /**
   * The watcher's share of the limit over the governor's window, 0 ≤ s ≤ 0.5 (0: no polling);
   * the default when unset or unreadable. Above half, the part the first class keeps for itself
   * (`upstream/rate/watcher-room.ts`) would be smaller than the watcher's.
   */
  WATCHER_BUDGET_SHARE: z
    .string()
    .min(1)
    .transform(Number)
    .pipe(z.number().min(0).max(0.5))
    .catch(DEFAULT_WATCHER_BUDGET_SHARE),
  /** Most rows one `Prefer: pages=all` answer may hold (`v2/shaping/all-pages.ts`). */
  PAGES_ALL_MAX_ROWS: Count(DEFAULT_PAGES_ALL_MAX_ROWS),
  /**
   * `calls` (default), `counters` or `off`. Unset means `calls`; a value set but unreadable means
   * `counters`: whoever set it meant to store less, and guessing `calls` would store the call data
   * (failed calls' bodies are personal data) they may have meant to keep out.
   */
  REQUEST_LOG: z
    .string()
    .optional()
    .transform((s) => s?.trim().toLowerCase())
    .pipe(RequestLogMode.optional())
    .transform((m) => m ?? "calls")
    .catch("counters"),
  /**
   * The waits between a webhook delivery's attempts (`events/schedule.ts`), e.g. `5s 5m 2h`;
   * the default (≈ 27.6 h in all) when unset or unreadable. Tests shorten it.
   */
  EVENT_RETRY_SCHEDULE: z
    .string()
    .transform((text, ctx) => {
      const parsed = parseSchedule(text);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    })
    .catch(() => defaultWaits()),
  /** The watcher's shortest cycle, s (`events/watcher/cadence.ts`); local development sets 5. */
  WATCHER_CYCLE_SECONDS: Count(DEFAULT_WATCHER_CYCLE_SECONDS),
  /** `true` in the local configuration only: see `eventEndpointsAllowLoopback` below. */
  EVENT_ENDPOINTS_ALLOW_LOOPBACK: z.string().optional().catch(undefined),
  /** Operations `/v2` lets through beyond the catalog; unreadable entries are ignored. */
  V2_EXTRA_OPERATIONS: z.string().optional().catch(undefined),
  /** Hostnames whose browser pages may call the MCP server, comma-separated. */
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
  /**
   * Stripe's API root, for reading payouts (`payouts/stripe/client.ts`): `https://api.stripe.com`
   * when unset; the sandbox's stand-in locally (wrangler.toml). Null when set to anything but an
   * https:// URL: the payouts that need it then fail naming the var, rather than call elsewhere.
   */
  STRIPE_API_BASE_URL: z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === "" ? STRIPE_API_ROOT : s.trim()))
    .pipe(z.url({ protocol: /^https$/ }).transform((s) => s.replace(/\/+$/, "")))
    .nullable()
    .catch(null),
  /** Bound only in local development (see `committedSecretsInUse` below). */
  SANDBOX: z.unknown().optional(),
} satisfies Partial<Record<keyof Bindings, z.ZodType>>);

/** The gateway's configuration, as `readConfig` builds it from the bindings. */
const GatewayConfig = ConfigBindings.transform((b) => ({
  /** The deployed version (`VERSION`), "dev" when unset. */
  version: b.VERSION,
  logLevel: b.LOG_LEVEL,
  rateLimitPerSecond: b.RATE_LIMIT_PER_SECOND,
  ratePacingMargin: b.RATE_PACING_MARGIN,
  /** The watcher's share of the limit over the governor's window (`WATCHER_BUDGET_SHARE`). */
  watcherBudgetShare: b.WATCHER_BUDGET_SHARE,
  pagesAllMaxRows: b.PAGES_ALL_MAX_ROWS,
  /** What the request log stores of each call (`REQUEST_LOG`). */
  requestLog: b.REQUEST_LOG,
  /** The waits between a webhook delivery's attempts, s (`EVENT_RETRY_SCHEDULE`). */
  eventRetryWaits: b.EVENT_RETRY_SCHEDULE,
  /** The watcher's shortest cycle, ms (`WATCHER_CYCLE_SECONDS`). */
  watcherFloorMs: b.WATCHER_CYCLE_SECONDS * 1000,
  /**
   * Whether a webhook endpoint may be `http://` on a loopback address
   * (`events/endpoint-url.ts`), for trying events with a receiver on the same machine. Only
   * when the var says `true` *and* the Worker is local (the SANDBOX binding, as for
   * `committedSecretsInUse` below): a `[vars]` block copied into a deploy carries the var along,
   * but never the binding, so a deployed gateway never posts to its own network whatever its vars
   * say.
   */
  eventEndpointsAllowLoopback: b.EVENT_ENDPOINTS_ALLOW_LOOPBACK === "true" && Boolean(b.SANDBOX),
  /** `/v2` operations the catalog lacks that the operator lets through (`V2_EXTRA_OPERATIONS`). */
  v2ExtraOperations: parseExtraOperations(b.V2_EXTRA_OPERATIONS),
  /** Hostnames beside the gateway's own and localhost whose pages may call `/mcp`. */
  mcpAllowedOrigins: (b.MCP_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean),
  adminToken: b.ADMIN_TOKEN,
  secretsKey: b.SECRETS_KEY,
  // "…Key", not "…Previous": the logger redacts fields by a secret-looking name.
  previousSecretsKey: b.SECRETS_KEY_PREVIOUS,
  /** Stripe's API root without a trailing slash; null when `STRIPE_API_BASE_URL` is not https. */
  stripeApiBaseUrl: b.STRIPE_API_BASE_URL,
  /** Each environment's roots and keys, or why it is unavailable. */
  environments: {
    demo: environmentAvailability("demo", b),
    production: environmentAvailability("production", b),
  } satisfies Record<Environment, unknown>,
  /**
   * The names of the secrets that still hold their committed development value outside local
   * development; empty when none does, or when the Worker is local.
   *
   * "Local" is the SANDBOX service binding being bound. That is the fact that makes the public
   * values harmless: with it, every upstream call goes to the sandbox (`upstream/transport.ts`), so
   * the public token reaches sandbox data only. `[env.production]` inherits neither `[vars]` nor
   * `[[services]]`, so a production deploy has no SANDBOX by construction. An explicit `LOCAL=true`
   * var would be a second switch that a copied `[vars]` block carries into production, where it
   * would say "local" while the Worker talks to the real API.
   */
  committedSecretsInUse: b.SANDBOX
    ? []
    : (["ADMIN_TOKEN", "SECRETS_KEY"] as const).filter(
        (name) => b[name] === COMMITTED_DEVELOPMENT_VALUES[name],
      ),
}));

/** The gateway's configuration: one typed object, inferred from the schema above. */
export type Config = z.output<typeof GatewayConfig>;

/**
 * One parse per bindings object. Keyed by the object itself, not held in a module variable: a
 * test or a Durable Object given other bindings gets their configuration, never a stale one.
 */
const parsed = new WeakMap<object, Config>();

/**
 * The configuration of `env`, parsed on first use and cached for as long as `env` lives. Never
 * throws: a missing or malformed setting becomes a default or an unavailable environment.
 *
 * @param env The Worker's bindings (`c.env`, or a Durable Object's or Workflow's `this.env`); any
 *   subset of them, as a test builds.
 * @returns The same `Config` object for the same `env`.
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
