/**
 * Who gets each permit, on a driven clock: the paced limit, round-robin between tenants, deadlines
 * and pauses of `upstream/rate/fair-queue.ts`. Counts, order and simulated times only, never
 * wall-clock time. The pace itself (slowing and creeping back) is `pacer.test.ts`'s.
 */
import { describe, expect, it } from "vitest";
import { FairQueue } from "../../../src/upstream/rate/fair-queue";
import {
  ECHO_MS,
  NUDGE_FACTOR,
  Pacer,
  RECOVERY_PER_SECOND,
  SLOWDOWN_FACTOR,
} from "../../../src/upstream/rate/pacer";
import { PATIENT_MS, busiestSecond, simulate, type Answer, type Arrival } from "./simulate";

/** The API's 10 per second, with a 5 % margin: a permit every 105.26 ms. */
const LIMIT = 10;
const MARGIN = 0.05;
const SPACING_MS = 1000 / (LIMIT * (1 - MARGIN));
/** Float noise in sums of spacings, ms. */
const EPSILON = 1e-6;

const queue = () =>
  new FairQueue<number>(new Pacer({ limit: LIMIT, margin: MARGIN, catchUpMs: 5 }));

/** A permit number above any granted: a call sent after every reaction of the pace so far. */
const NEWEST = Number.MAX_SAFE_INTEGER;

/**
 * Two 429s to new calls, a second apart: the first nudges the pace, the second (at `now`) pauses it
 * for `seconds` and slows it.
 */
function pauseFor(q: FairQueue<number>, seconds: number, now: number): void {
  expect(q.throttled(1, now - ECHO_MS, NEWEST)).toBe("nudged");
  expect(q.throttled(seconds, now, NEWEST)).toBe("slowed");
}

/** Each element minus the one before it. */
const diffs = (xs: number[]) => xs.slice(1).map((x, i) => x - (xs[i] ?? 0));
/** The gaps between consecutive grants. */
const gaps = (answers: Answer[]) => diffs(answers.filter((a) => a.ok).map((a) => a.at));
const granted = (answers: Answer[], tenant?: string) =>
  answers.filter((a) => a.ok && (tenant === undefined || a.tenant === tenant));
const burst = (n: number, tenant: string, at = 0, maxWaitMs = PATIENT_MS): Arrival[] =>
  Array.from({ length: n }, () => ({ at, tenant, maxWaitMs }));
/** Jain's fairness index: 1 when all counts are equal, 1/n when one tenant takes everything. */
const jain = (xs: number[]) =>
  xs.reduce((a, b) => a + b, 0) ** 2 / (xs.length * xs.reduce((a, b) => a + b * b, 0));

describe("fair queue: the pace", () => {
  it("grants at once when idle, and queues the next call until one spacing later", () => {
    const q = queue();
    expect(q.offer("a", PATIENT_MS, 0, 0)).toEqual({ outcome: "granted", permit: 0 });
    expect(q.offer("a", PATIENT_MS, 0, 1)).toEqual({ outcome: "queued" });
    expect(q.drain(0).wakeAt).toBeCloseTo(SPACING_MS, 9);
    expect(q.counters()).toEqual({ a: { permits: 1, waited: 1, refused: 0 } });
  });

  it("spaces grants evenly: no two closer than the spacing, and never more than the limit in any rolling second", () => {
    const arrivals = [
      ...burst(200, "a"),
      ...Array.from({ length: 90 }, (_, i) => ({ at: (i * 377) % 9000, tenant: `t${i % 3}` })),
      ...burst(30, "b", 4321),
    ];
    const answers = simulate(queue(), arrivals);
    expect(answers).toHaveLength(arrivals.length);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(Math.min(...gaps(answers))).toBeGreaterThanOrEqual(SPACING_MS - EPSILON);
    expect(busiestSecond(answers.map((a) => a.at))).toBe(LIMIT);
  });

  it("keeps a rolling second at the limit even when every call's arrival upstream is delayed by up to 10 × spacing − 1000 ms more than the tenth before it", () => {
    const answers = simulate(queue(), burst(300, "a"));
    const slack = 10 * SPACING_MS - 1000;
    // The worst case for the API: alternately on time and delayed by the whole slack.
    const arrivals = granted(answers).map(
      (a, i) => a.at + (Math.floor(i / 10) % 2 === 0 ? slack - EPSILON : 0),
    );
    expect(busiestSecond(arrivals)).toBe(LIMIT);
  });

  it("serves a backlog at the spacing exactly, with no bursts", () => {
    const answers = simulate(queue(), burst(3 * LIMIT, "a"));
    granted(answers).forEach((a, i) => expect(a.at).toBeCloseTo(i * SPACING_MS, 6));
  });
});

describe("fair queue: fairness", () => {
  it("serves two queued tenants in turn: B's 5 calls behind A's 200 are all among the first 10 grants after they arrive", () => {
    const answers = simulate(queue(), [...burst(200, "a"), ...burst(5, "b", 300)]);
    const bTurns = granted(answers)
      .filter((a) => a.at >= 300)
      .flatMap((a, i) => (a.tenant === "b" ? [i] : []));
    expect(bTurns).toEqual([1, 3, 5, 7, 9]);
    expect(granted(answers, "a")).toHaveLength(200);
  });

  it("serves three tenants round-robin, one permit each per turn", () => {
    const answers = simulate(queue(), [
      ...burst(LIMIT, "fill"),
      ...burst(4, "a", 1),
      ...burst(4, "b", 2),
      ...burst(4, "c", 3),
    ]);
    expect(
      granted(answers)
        .filter((a) => a.tenant !== "fill")
        .map((a) => a.tenant)
        .join(""),
    ).toBe("abcabcabcabc");
  });

  it("keeps each tenant's own calls in arrival order", () => {
    const answers = simulate(queue(), [...burst(25, "a"), ...burst(25, "b")]);
    for (const t of ["a", "b"]) {
      const ids = answers.filter((a) => a.tenant === t).map((a) => a.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }
  });

  it("gives 5 backlogged tenants equal counts (Jain's index 1) whatever they offer, over a drained period", () => {
    const offers = [4, 8, 16, 32, 64];
    const arrivals = offers.flatMap((perSecond, k) =>
      Array.from({ length: perSecond * 10 }, (_, i) => ({
        at: Math.floor((i * 1000) / perSecond),
        tenant: `t${k}`,
      })),
    );
    const answers = simulate(queue(), arrivals);
    // Drained period: from the first grant to the moment the lightest tenant's last call is served;
    // all five wait throughout.
    const end = granted(answers, "t0").at(-1)?.at ?? 0;
    const counts = offers.map(
      (_, k) => granted(answers, `t${k}`).filter((a) => a.at <= end).length,
    );
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(jain(counts)).toBeGreaterThan(0.999);
    // …and the period is long: all of the lightest tenant's 40 calls, and as many of each other's.
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(5 * 39);
  });
});

describe("fair queue: deadlines", () => {
  it("refuses at once, with a Retry-After from the estimated turn, a call whose wait passes its deadline", () => {
    const q = queue();
    for (let i = 0; i < 20; i++) q.offer("a", PATIENT_MS, 0, i);
    // 19 wait ahead of it: the next permit at 105 ms, then 19 spacings, 2.1 s in all, so 3 s.
    expect(q.offer("a", 500, 0, 99)).toEqual({ outcome: "refused", retryAfterSeconds: 3 });
    expect(q.waiting).toBe(19);
    expect(q.counters().a).toEqual({ permits: 1, waited: 19, refused: 1 });
  });

  it("queues a call whose estimated wait is within its deadline, and grants it in time", () => {
    const answers = simulate(queue(), [...burst(5, "a"), { at: 100, tenant: "b", maxWaitMs: 300 }]);
    // One of A's permits is ahead of B (A's turn was already due): B gets the second, at 2
    // spacings.
    expect(granted(answers, "b")).toEqual([
      { id: 5, at: 2 * SPACING_MS, tenant: "b", lane: "caller", ok: true, permit: 2 },
    ]);
  });

  it("refuses a queued call when a pause pushes its turn past its deadline, with a Retry-After from the new estimate", () => {
    const q = queue();
    q.offer("a", PATIENT_MS, 0, 0);
    expect(q.offer("b", 1500, 0, 42).outcome).toBe("queued");
    pauseFor(q, 5, 50);
    expect(q.drain(50)).toEqual({ granted: [], refused: [], wakeAt: 1500 });
    // At 1500 the pause has 3550 ms to go: 4 s.
    expect(q.drain(1500)).toEqual({
      granted: [],
      refused: [{ tenant: "b", lane: "caller", ticket: 42, retryAfterSeconds: 4 }],
      wakeAt: null,
    });
    expect(q.counters().b).toEqual({ permits: 0, waited: 1, refused: 1 });
  });
});

describe("fair queue: after a 429", () => {
  it("holds every grant for the pause, then resumes round-robin at a slower spacing", () => {
    const q = queue();
    pauseFor(q, 2, 0);
    expect(q.offer("a", PATIENT_MS, 0, 0).outcome).toBe("queued");
    const answers = simulate(q, burst(LIMIT, "b", 10));
    expect(answers.map((a) => a.tenant).slice(0, 3)).toEqual(["a", "b", "b"]);
    expect(answers[0]?.at).toBe(2000);
    expect(gaps(answers)[0]).toBeCloseTo(
      SPACING_MS * NUDGE_FACTOR * (1 - RECOVERY_PER_SECOND) * SLOWDOWN_FACTOR,
      9,
    );
    expect(Math.min(...gaps(answers))).toBeGreaterThan(SPACING_MS);
    expect(answers.every((a) => a.ok)).toBe(true);
  });

  it("adapts under load: a first 429 widens the gaps a little and holds nothing, a second soon after holds every grant and widens them more, then they shrink back as 429-free seconds pass", () => {
    const q = queue();
    const reactions: string[] = [];
    // The API answers 429 to the newest call at 5 s, and again at 8 s.
    const answers = simulate(q, burst(400, "a"), (now, so) => {
      if (now < ([5000, 8000][reactions.length] ?? Infinity)) return;
      reactions.push(q.throttled(1, now, so.at(-1)?.permit ?? -1));
    });
    expect(reactions).toEqual(["nudged", "slowed"]);
    const ok = granted(answers);
    const g = gaps(answers);
    // The grant at the step of the first 429 was already due; the gap after it is the first nudged
    // one.
    const firstNudged = ok.findIndex((a) => a.at >= 5000);
    const pause = g.findIndex((x) => x > 900);
    for (const x of g.slice(0, firstNudged)) expect(x).toBeCloseTo(SPACING_MS, 6);
    // Nudged: about a tenth wider at once, no pause until the second 429.
    expect((g[firstNudged] ?? 0) / SPACING_MS).toBeCloseTo(NUDGE_FACTOR, 1);
    // The only pause starts at the second 429 (the grant due then waits it out).
    expect(ok[pause + 1]?.at).toBeGreaterThanOrEqual(9000);
    // Slowed: the pause, then half as wide again as the nudged pace had crept back to, shrinking
    // from there, never below the spacing.
    const after = g.slice(pause + 1);
    expect((after[0] ?? 0) / SPACING_MS).toBeCloseTo(
      NUDGE_FACTOR * (1 - RECOVERY_PER_SECOND) ** 3 * SLOWDOWN_FACTOR,
      1,
    );
    expect(Math.max(...diffs(after))).toBeLessThanOrEqual(EPSILON);
    expect(after.at(-1)).toBeLessThan(after[0] ?? 0);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(SPACING_MS - EPSILON);
  });

  it("refuses at once a call that cannot wait for the pause to end", () => {
    const q = queue();
    pauseFor(q, 3, 0);
    expect(q.offer("a", 1000, 0, 0)).toEqual({ outcome: "refused", retryAfterSeconds: 3 });
  });

  it("never lets a shorter pause cut a longer one short", () => {
    const q = queue();
    pauseFor(q, 5, 0);
    expect(q.throttled(1, 1000, NEWEST)).toBe("echo");
    expect(q.estimateWait("a", 1000)).toBe(4000);
  });
});
