/**
 * A driven clock for `FairQueue`: plays arrivals as the governor's timer would and counts the API's
 * rolling second. Shared by the queue's tests; not a test file itself.
 */
import { FairQueue } from "../../../src/upstream/rate/fair-queue";
import { GrantWindow } from "../../../src/upstream/rate/grant-window";
import { Pacer } from "../../../src/upstream/rate/pacer";
import { WatcherRoom } from "../../../src/upstream/rate/watcher-room";
import type { Lane } from "../../../src/upstream/client";

/** Long enough that no request in these tests hits its deadline unless the test means it to. */
export const PATIENT_MS = 600_000;

/**
 * The governor's settings (`upstream/rate-governor.ts`): 10 a second, a 4 % margin, 5 ms catch-up,
 * two places of a burst reserved, and the watcher's 2 places (a share of 20 %).
 */
export const GOVERNOR = (() => {
  const LIMIT = 10;
  const MARGIN = 0.04;
  const CATCH_UP_MS = 5;
  const TRANSIT_MS = 1000 / (1 - MARGIN) - 1000 - CATCH_UP_MS;
  return {
    LIMIT,
    MARGIN,
    CATCH_UP_MS,
    RESERVE: 2,
    /** How late a call may leave with no report (`LATE_DEPARTURE_MS`). */
    UNREPORTED_MS: 15,
    WATCHER_PLACES: 2,
    SPACING_MS: 1000 / (LIMIT * (1 - MARGIN)),
    TRANSIT_MS,
    /** The window's span: one second plus the transit margin. */
    SPAN_MS: 1000 + TRANSIT_MS,
  };
})();

/** A queue as the governor builds it, the watcher with `places` (default its 2). */
export function governorQueue(places = GOVERNOR.WATCHER_PLACES): FairQueue<number> {
  const { LIMIT, MARGIN, CATCH_UP_MS, TRANSIT_MS, RESERVE, UNREPORTED_MS } = GOVERNOR;
  return new FairQueue<number>(
    new Pacer({ limit: LIMIT, margin: MARGIN, catchUpMs: CATCH_UP_MS }),
    new GrantWindow({
      limit: LIMIT,
      transitMarginMs: TRANSIT_MS,
      reserve: RESERVE,
      unreportedLatenessMs: UNREPORTED_MS,
    }),
    new WatcherRoom(places),
  );
}

/** A seeded PRNG (mulberry32): the same patterns on every run. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Arrival {
  at: number;
  tenant: string;
  maxWaitMs?: number;
  /** The caller's own when absent. */
  lane?: Lane;
}
export interface Answer {
  id: number;
  at: number;
  tenant: string;
  lane: Lane;
  ok: boolean;
  retryAfterSeconds?: number;
  /** The permit's number, for a grant. */
  permit?: number;
}

/**
 * Plays `arrivals` against `q` on a simulated clock, as the governor's timer would (a punctual
 * one): the clock jumps to the next arrival or to the queue's `wakeAt`, whichever is first, and
 * `at(now)` runs first at each step (a 429 arriving, say). Returns every answer in order.
 */
export function simulate(
  q: FairQueue<number>,
  arrivals: Arrival[],
  at: (now: number, answers: Answer[]) => void = () => {},
): Answer[] {
  const pending = [...arrivals].sort((a, b) => a.at - b.at);
  const answers: Answer[] = [];
  let wakeAt: number | null = null;
  let id = 0;
  for (;;) {
    const now = Math.min(pending[0]?.at ?? Infinity, wakeAt ?? Infinity);
    if (now === Infinity) return answers;
    at(now, answers);
    for (let a = pending[0]; a !== undefined && a.at === now; a = pending[0]) {
      pending.shift();
      const lane = a.lane ?? "caller";
      const offer = q.offer(a.tenant, a.maxWaitMs ?? PATIENT_MS, now, id, lane);
      if (offer.outcome === "granted")
        answers.push({ id, at: now, tenant: a.tenant, lane, ok: true, permit: offer.permit });
      if (offer.outcome === "refused")
        answers.push({
          id,
          at: now,
          tenant: a.tenant,
          lane,
          ok: false,
          retryAfterSeconds: offer.retryAfterSeconds,
        });
      id++;
    }
    const drained = q.drain(now);
    for (const r of drained.refused)
      answers.push({
        id: r.ticket,
        at: now,
        tenant: r.tenant,
        lane: r.lane,
        ok: false,
        retryAfterSeconds: r.retryAfterSeconds,
      });
    for (const g of drained.granted)
      answers.push({
        id: g.ticket,
        at: now,
        tenant: g.tenant,
        lane: g.lane,
        ok: true,
        permit: g.permit,
      });
    wakeAt = drained.wakeAt;
  }
}

/**
 * The most grants in any rolling window of `spanMs` (1000: the API's second), counted as the API
 * counts: (t − spanMs, t].
 */
export function busiestSecond(times: number[], spanMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[j] ?? 0) + spanMs <= (sorted[i] ?? 0)) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
