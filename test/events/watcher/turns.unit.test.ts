/**
 * The watchers of one environment taking turns in the governor's watcher lane
 * (`events/watcher/cadence.ts`, `turnWaitMs`), on a driven clock: each watcher runs the cycles of
 * `events/watcher/watcher-object.ts` (its polls in turn, the next cycle at `nextCycleAt`) against
 * the governor's real queue (`FairQueue` with its window and watcher room), nobody of the first
 * class calling. Counts, order and simulated times only.
 */
import { describe, expect, it } from "vitest";
import { nextCycleAt } from "../../../src/events/watcher/object/cycle";
import type { FairQueue } from "../../../src/upstream/rate/fair-queue";
import {
  cycles,
  MAX_TURN_WAIT_MS,
  MIN_TURN_WAIT_MS,
  turnWaitMs,
} from "../../../src/events/watcher/cadence";
import { GOVERNOR, governorQueue, prng } from "../../upstream/rate/simulate";

/** Polls a cycle of each tenant (an endpoint that takes every type). */
const POLLS = 4;
/** How long an API call takes once its permit is granted, ms. */
const CALL_MS = 30;

interface Run {
  /** Watcher permits granted, and refusals (an offer refused, or a queued poll whose wait ran out). */
  permits: number;
  refused: number;
  /** Each tenant's gaps between the ends of its consecutive whole cycles, ms. */
  gaps: number[];
}

/**
 * `n` watchers of `POLLS` polls for `ms`, each poll waiting `waitMs` for its turn, the cycle the
 * cadence gives `n` active tenants; each watcher's first cycle at a random moment of its first.
 */
function play(
  n: number,
  waitMs: (cycleMs: number) => number,
  ms: number,
  seed: number,
  callerEveryMs = Infinity,
): Run {
  const q: FairQueue<number> = governorQueue();
  const rand = prng(seed);
  const cycleMs = cycles(
    { limitPerSecond: GOVERNOR.LIMIT, share: 0.2, floorMs: 5000 },
    Array.from({ length: n }, () => ({ cost: POLLS, active: true })),
  ).active;
  const w = Array.from({ length: n }, () => ({
    startedAt: Math.floor(rand() * cycleMs),
    offerAt: 0,
    left: POLLS,
    lastEnd: null as number | null,
    queued: false,
  }));
  for (const x of w) x.offerAt = x.startedAt;
  const run: Run = { permits: 0, refused: 0, gaps: [] };
  const granted = (i: number, now: number) => {
    const x = w[i];
    if (!x) throw new Error(`no watcher ${i}`);
    run.permits++;
    x.queued = false;
    x.left--;
    if (x.left > 0) {
      x.offerAt = now + CALL_MS;
      return;
    }
    const end = now + CALL_MS;
    if (x.lastEnd !== null) run.gaps.push(end - x.lastEnd);
    x.lastEnd = end;
    x.left = POLLS;
    x.offerAt = nextCycleAt(
      x.startedAt,
      cycleMs,
      { calls: POLLS, delays: [], outcome: "ok", retryAfterSeconds: 0 },
      end,
    );
    x.startedAt = x.offerAt;
  };
  // A refused poll stops the cycle; the watcher finishes it at `nextCycleAt` (no-permit).
  const refused = (i: number, now: number, retryAfterSeconds: number) => {
    const x = w[i];
    if (!x) throw new Error(`no watcher ${i}`);
    run.refused++;
    x.queued = false;
    const stopped = { calls: 0, delays: [], outcome: "no-permit" as const, retryAfterSeconds };
    x.offerAt = nextCycleAt(x.startedAt, cycleMs, stopped, now);
    x.startedAt = x.offerAt;
  };
  let wakeAt: number | null = null;
  let callerAt = callerEveryMs;
  for (;;) {
    let now = Math.min(wakeAt ?? Infinity, callerAt);
    for (const x of w) if (!x.queued) now = Math.min(now, x.offerAt);
    if (now >= ms) return run;
    if (now === callerAt) {
      q.offer("caller", 600_000, now, -1);
      callerAt += callerEveryMs;
    }
    w.forEach((x, i) => {
      if (x.queued || x.offerAt !== now) return;
      const offer = q.offer(`w${i}`, waitMs(cycleMs), now, i, "watcher");
      if (offer.outcome === "granted") granted(i, now);
      else if (offer.outcome === "refused") refused(i, now, offer.retryAfterSeconds);
      else x.queued = true;
    });
    const drained = q.drain(now);
    for (const r of drained.refused) if (r.ticket >= 0) refused(r.ticket, now, r.retryAfterSeconds);
    for (const g of drained.granted) if (g.ticket >= 0) granted(g.ticket, now);
    wakeAt = drained.wakeAt;
  }
}

/** The `p` quantile of `xs`. */
const quantile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

describe("watchers taking turns", () => {
  it("waits its cycle, within 2 s and 2 min", () => {
    expect(turnWaitMs(40_000)).toBe(40_000);
    expect(turnWaitMs(5000)).toBe(5000);
    expect(turnWaitMs(500)).toBe(MIN_TURN_WAIT_MS);
    expect(turnWaitMs(600_000)).toBe(MAX_TURN_WAIT_MS);
  });

  it("100 tenants beside a caller's 4 calls a second: the share used to its window's capacity, none refused, each cycle close to the formula's", () => {
    const ms = 1_200_000;
    const run = play(100, turnWaitMs, ms, 7, 250);
    // The room: `WATCHER_PLACES` permits in any window of `SPAN_MS`, 3.5 % less than the 2 a
    // second the cadence's formula counts on, so cycles run a little longer than its 200 s.
    const capacity = (ms / GOVERNOR.SPAN_MS) * GOVERNOR.WATCHER_PLACES;
    expect(run.refused).toBe(0);
    expect(run.permits / capacity).toBeGreaterThan(0.95);
    expect(run.permits / capacity).toBeLessThanOrEqual(1);
    expect(quantile(run.gaps, 0.95)).toBeLessThan(1.2 * 200_000);
  });

  it("the same with 2 s waits (the rule before turns): more refusals than half the permits, each an RPC and a request-log row, and a later worst cycle", () => {
    const ms = 1_200_000;
    const turns = play(100, turnWaitMs, ms, 7, 250);
    const short = play(100, () => 2000, ms, 7, 250);
    expect(short.refused).toBeGreaterThan(0.5 * short.permits);
    expect(Math.max(...short.gaps)).toBeGreaterThan(Math.max(...turns.gaps));
  });

  it("20 tenants: none refused, 95 % of cycles within 1.2 × its 40 s, every one within 1.3 ×", () => {
    const run = play(20, turnWaitMs, 600_000, 11, 250);
    expect(run.refused).toBe(0);
    expect(quantile(run.gaps, 0.95)).toBeLessThan(1.2 * 40_000);
    expect(Math.max(...run.gaps)).toBeLessThan(1.3 * 40_000);
  });
});
