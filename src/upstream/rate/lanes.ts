/** @module A call's lane decides its class and round-robin key: docs/design/rate-governor.md. */
import type { Lane } from "../client";

/** `first`: callers, order runs, assistants; `low`: the watcher. */
export type PermitClass = "first" | "low";

export function classOf(lane: Lane): PermitClass {
  return lane === "watcher" ? "low" : "first";
}

/**
 * The round-robin key of `tenant`'s `lane`: the tenant's name for its callers, else `tenant#lane`.
 * @example laneKey("demo:acme", "assistant") // "demo:acme#assistant"
 */
export function laneKey(tenant: string, lane: Lane): string {
  return lane === "caller" ? tenant : `${tenant}#${lane}`;
}

/** @example splitLaneKey("demo:acme#assistant") // { tenant: "demo:acme", lane: "assistant" } */
export function splitLaneKey(key: string): { tenant: string; lane: Lane } {
  const at = key.lastIndexOf("#");
  const lane = key.slice(at + 1);
  return at > 0 && (lane === "assistant" || lane === "watcher")
    ? { tenant: key.slice(0, at), lane }
    : { tenant: key, lane: "caller" };
}

/**
 * The watcher's places: `share` of `limit` rounded down, at least 1, never all; share 0: off.
 * @example watcherPlaces(10, 0.2) // 2
 */
export function watcherPlaces(limit: number, share: number): number {
  if (!(share > 0)) return 0;
  // The epsilon keeps a decimal share whole: 0.29 × 100 is 28.999999999999996.
  const places = Math.max(1, Math.floor(share * limit + 1e-9));
  return Math.max(0, Math.min(places, limit - 1));
}
