/**
 * @module
 * Whose traffic a permit is, for the governor's queues: the lane of a call (`Lane`, set on the
 * upstream call) decides its class and the round-robin key it waits under. Pure names and numbers;
 * `fair-queue.ts` applies them.
 *
 * Classes: a caller's `/v2` call, an order run's step, a token request, onboarding's calls and an
 * assistant's tool calls are the first class; the watcher (issue 30) is the low class, served only
 * from what the first class leaves (`watcher-room.ts`).
 *
 * Lanes: inside the first class, a tenant's assistant is a key of its own beside the tenant's
 * callers (`demo:acme#assistant` beside `demo:acme`), and round-robin serves keys, not tenants. So
 * twenty parallel tool calls are one key's backlog, exactly like one tenant's `/v2` burst of
 * twenty: they cannot hold back that tenant's order run, nor anyone else's, more than such a burst
 * would. The rule for an assistant calling all the time: while permits are queued, every busy key
 * gets one permit per turn, so an assistant among N busy keys takes 1/N of the queued permits (1/2
 * beside its own tenant's busy callers and nobody else, all of them when alone); while nothing is
 * queued it takes what it asks for, since nobody else wants the room.
 */
import type { Lane } from "../client";

/** A permit's priority: `first` (callers, order runs, assistants) or `low` (the watcher). */
export type PermitClass = "first" | "low";

/** The class of a lane's permits. */
export function classOf(lane: Lane): PermitClass {
  return lane === "watcher" ? "low" : "first";
}

/**
 * The round-robin key of `tenant`'s `lane`: the tenant's own name for its callers (so a tenant with
 * no assistant and no watcher queues exactly as before lanes), `tenant#lane` otherwise.
 *
 * @example laneKey("demo:acme", "assistant") // "demo:acme#assistant"
 */
export function laneKey(tenant: string, lane: Lane): string {
  return lane === "caller" ? tenant : `${tenant}#${lane}`;
}

/**
 * The tenant and lane of a round-robin key, `laneKey` undone.
 *
 * @example splitLaneKey("demo:acme#assistant") // { tenant: "demo:acme", lane: "assistant" }
 */
export function splitLaneKey(key: string): { tenant: string; lane: Lane } {
  const at = key.lastIndexOf("#");
  const lane = key.slice(at + 1);
  return at > 0 && (lane === "assistant" || lane === "watcher")
    ? { tenant: key.slice(0, at), lane }
    : { tenant: key, lane: "caller" };
}

/**
 * Places of the window the watcher may hold at once, out of `limit`: `share` of the limit, rounded
 * down, at least 1 for any share above 0 (so a small share on a small limit still polls, a little
 * more than it says), and never the whole window. 0 turns the watcher off.
 *
 * @example watcherPlaces(10, 0.2) // 2
 */
export function watcherPlaces(limit: number, share: number): number {
  if (!(share > 0)) return 0;
  // The epsilon keeps a share written in decimals whole: 0.3 × 10 is 3.0000000000000004, 0.7 × 10
  // 7.000000000000001, and 0.29 × 100 is 28.999999999999996.
  const places = Math.max(1, Math.floor(share * limit + 1e-9));
  return Math.max(0, Math.min(places, limit - 1));
}
