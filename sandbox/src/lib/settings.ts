/**
 * @module
 * Knobs of the sandbox that tests and benchmarks turn: token lifetime, rate limit, latency and
 * injected faults. Faults are consumed in order; one without `count` stays until settings change.
 */
import { z } from "zod";

/** Which calls a fault hits: the token endpoint, v2 calls, or both. */
const Target = z.enum(["token", "api", "any"]);

const faultBase = {
  target: Target.default("any"),
  /**
   * Case-insensitive prefix of the path after the environment root, e.g. `/Customers`; a `*` stands
   * for one path segment (see `prefixMatches`).
   */
  path: z.string().startsWith("/").optional(),
  /** How many matching calls it hits before it is used up; absent: every matching call. */
  count: z.int().positive().optional(),
};

/** One injected failure. */
export const Fault = z.discriminatedUnion("kind", [
  /** Answer with a 5xx status, as an overloaded backend would. */
  z.strictObject({
    kind: z.literal("error"),
    status: z.int().min(500).max(599).default(503),
    ...faultBase,
  }),
  /**
   * Drop the connection without an answer; with `afterHandling`, only after a v2 call took effect
   * (its answer lost on the way back, so the caller cannot tell whether it did).
   */
  z.strictObject({
    kind: z.literal("drop"),
    afterHandling: z.boolean().default(false),
    ...faultBase,
  }),
  /** Answer 429 as the API's gateway does, whatever the real load (a "429 storm"). */
  z.strictObject({
    kind: z.literal("throttle"),
    retryAfterSeconds: z.int().min(1).max(3600).default(1),
    ...faultBase,
  }),
]);
export type Fault = z.output<typeof Fault>;

/** The settings document, with the real API's values as defaults. */
export const Settings = z.strictObject({
  /** Lifetime of issued access tokens; the real API's is 1200 s (20 minutes). */
  tokenLifetimeSeconds: z.int().min(1).max(86_400).default(1200),
  /** Calls per second per subscription key; the real API allows 10. */
  rateLimitPerSecond: z.int().min(1).max(10_000).default(10),
  /**
   * When set, the limit is counted per fixed window of this many ms, aligned to the clock
   * (`rateLimitPerSecond × fixedWindowMs / 1000` calls a window, at least 1), instead of a rolling
   * second: the same rate, but a burst larger than one window's share draws 429s. Null: rolling.
   */
  fixedWindowMs: z.int().min(10).max(1000).nullable().default(null),
  /** Added to every token and v2 answer, to model network distance. */
  latencyMs: z.int().min(0).max(30_000).default(0),
  faults: z.array(Fault).max(50).default([]),
});
export type Settings = z.output<typeof Settings>;

/** A partial update of the settings, as `PUT /_sandbox/settings` takes it. */
export const SettingsPatch = z.strictObject({
  tokenLifetimeSeconds: z.int().min(1).max(86_400).optional(),
  rateLimitPerSecond: z.int().min(1).max(10_000).optional(),
  fixedWindowMs: z.int().min(10).max(1000).nullable().optional(),
  latencyMs: z.int().min(0).max(30_000).optional(),
  faults: z.array(Fault).max(50).optional(),
  environment: z.enum(["demo", "production"]).optional(),
});
export type SettingsPatch = z.output<typeof SettingsPatch>;

/**
 * Whether `pattern` is a prefix of `path`, a `*` in it matching one segment:
 * `/SalesOrders/{star}/createAndSendInvoice`.
 */
function prefixMatches(pattern: string, path: string): boolean {
  if (!pattern.includes("*")) return path.startsWith(pattern);
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join("[^/]+")}`).test(path);
}

/**
 * The fault, if any, that hits a call to `path` at `target`; `path` is relative to the environment
 * root.
 */
export function matchFault(
  faults: readonly Fault[],
  target: "token" | "api",
  path: string,
): number {
  const lower = path.toLowerCase();
  return faults.findIndex(
    (f) =>
      (f.target === "any" || f.target === target) &&
      (f.path === undefined || prefixMatches(f.path.toLowerCase(), lower)),
  );
}
