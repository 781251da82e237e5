/**
 * The watcher, the governor's low class (`upstream/rate/watcher-room.ts` inside `FairQueue`), on a
 * driven clock: callers are answered exactly as with no watcher while they leave its share free,
 * the share cap, priority, refusals, and the back-off after a 429. Every pattern is played twice,
 * with and without watcher traffic, and compared. Counts, order and simulated times only.
 */
import { describe, expect, it } from "vitest";
import type { FairQueue } from "../../../src/upstream/rate/fair-queue";
import { ECHO_MS } from "../../../src/upstream/rate/pacer";
import { WATCHER_BACKOFF_MS } from "../../../src/upstream/rate/watcher-room";
import {
  GOVERNOR,
  PATIENT_MS,
  busiestSecond,
  governorQueue,
  prng,
  simulate,
  type Answer,
  type Arrival,
} from "./simulate";

const { CATCH_UP_MS, LIMIT, SPACING_MS, SPAN_MS, WATCHER_PLACES } = GOVERNOR;
/** A watcher's wait for its permit: short, it tries again next cycle. */
const WATCHER_WAIT_MS = 1000;
const NEWEST = Number.MAX_SAFE_INTEGER;
/**
 * The random patterns' tests play a few hundred thousand simulated grants: a limit on a loaded
 * machine, not an expectation (the default 5 s is the whole file's on a quiet one).
 */
const MANY = { timeout: 60_000 };

/** Five tenants' watchers polling for `ms`, each every 150–450 ms. */
function watchers(rand: () => number, ms: number): Arrival[] {
  const out: Arrival[] = [];
  for (let w = 0; w < 5; w++)
    for (let at = Math.floor(rand() * 300); at < ms; at += 150 + Math.floor(rand() * 300))
      out.push({ at, tenant: `w${w}`, lane: "watcher", maxWaitMs: WATCHER_WAIT_MS });
  return out;
}

/**
 * First-class traffic for `ms`: groups of `1..maxGroup` calls of one of four tenants' callers or
 * assistants, a group every `minGapMs` plus up to `spreadMs`; a fifth of the groups with a short
 * deadline when `impatient`.
 */
function callers(
  rand: () => number,
  ms: number,
  o: { minGapMs: number; spreadMs: number; maxGroup: number; impatient: boolean },
): Arrival[] {
  const out: Arrival[] = [];
  for (let at = 0; ;) {
    at += Math.round(o.minGapMs + rand() * o.spreadMs);
    if (at >= ms) return out;
    const n = 1 + Math.floor(rand() * o.maxGroup);
    const tenant = `t${Math.floor(rand() * 4)}`;
    const lane = rand() < 0.3 ? "assistant" : "caller";
    const maxWaitMs = o.impatient && rand() < 0.2 ? 500 : PATIENT_MS;
    for (let k = 0; k < n; k++) out.push({ at, tenant, lane, maxWaitMs });
  }
}

/** Plays `of` among `all` on `q`; answers the answer of each arrival of `of`, in its order. */
function answersOf(q: FairQueue<number>, of: Arrival[], all: Arrival[]): Answer[] {
  const answers = new Map(simulate(q, all).map((a) => [a.id, a]));
  // `simulate` numbers arrivals in time order, ties in the given order (a stable sort).
  const order = [...all].sort((a, b) => a.at - b.at);
  return of.map((arrival) => {
    const answer = answers.get(order.indexOf(arrival));
    if (!answer) throw new Error(`no answer for an arrival at ${arrival.at}`);
    return answer;
  });
}

/** Drains `q` from `now` at each of its wake times until nothing waits; answers the grants. */
function drive(q: FairQueue<number>, now: number): Answer[] {
  const answers: Answer[] = [];
  for (let at: number | null = now; at !== null;) {
    const { granted, wakeAt } = q.drain(at);
    for (const g of granted)
      answers.push({
        id: g.ticket,
        at,
        tenant: g.tenant,
        lane: g.lane,
        ok: true,
        permit: g.permit,
      });
    at = wakeAt;
  }
  return answers;
}

/** What a caller sees of its answer: granted when, or refused with what Retry-After. */
const seen = (a: Answer) => (a.ok ? { at: a.at } : { refusedAt: a.at, retry: a.retryAfterSeconds });

describe("watcher: never delays a caller who leaves its share free", () => {
  it(
    "answers every caller exactly as with no watcher, over 100 random patterns in which the first class takes at most limit − places of any window",
    MANY,
    () => {
      let compared = 0;
      for (let seed = 1; seed <= 100; seed++) {
        const rand = prng(seed);
        const first = callers(rand, 20_000, {
          minGapMs: 400,
          spreadMs: 1500,
          maxGroup: 4,
          impatient: true,
        });
        const polls = watchers(rand, 20_000);
        const alone = answersOf(governorQueue(), first, first);
        // The promise covers patterns that leave the share free; the others are the next test's.
        const busiest = busiestSecond(
          alone.filter((a) => a.ok).map((a) => a.at),
          SPAN_MS,
        );
        if (busiest > LIMIT - WATCHER_PLACES) continue;
        compared++;
        const all = [...first, ...polls];
        const beside = answersOf(governorQueue(), first, all);
        expect(beside.map(seen)).toEqual(alone.map(seen));
        // …while the watcher really polled: a good part of its 2 places a window.
        const watcherGrants = answersOf(governorQueue(), polls, all).filter((a) => a.ok).length;
        expect(watcherGrants).toBeGreaterThan(20);
      }
      expect(compared).toBeGreaterThan(60);
    },
  );
});

describe("watcher: what holds for any traffic", () => {
  it(
    "over 60 random patterns up to three times the quota: no watcher permit while a caller waits or beyond the first class's part, never more than the limit in a window, and the first class never more permits behind than the watcher took",
    MANY,
    () => {
      let watcherPermits = 0;
      for (let seed = 101; seed <= 160; seed++) {
        const rand = prng(seed);
        const first = callers(rand, 20_000, {
          minGapMs: 0,
          spreadMs: 600,
          maxGroup: 12,
          impatient: false,
        });
        const polls = watchers(rand, 20_000);
        const all = [...first, ...polls];
        const alone = answersOf(governorQueue(), first, first);
        const beside = answersOf(governorQueue(), first, all);
        const watched = answersOf(governorQueue(), polls, all).filter((a) => a.ok);
        watcherPermits += watched.length;
        expect(beside.every((a) => a.ok)).toBe(true);
        const firstTimes = beside.map((a) => a.at);
        for (const w of watched) {
          // Nobody of the first class waited: every caller who came before was granted by then.
          first.forEach((c, i) => {
            if (c.at < w.at) expect(firstTimes[i]).toBeLessThanOrEqual(w.at);
          });
          // The first class held at most limit − places of the window.
          const held = firstTimes.filter((t) => t > w.at - SPAN_MS && t <= w.at).length;
          expect(held).toBeLessThanOrEqual(LIMIT - WATCHER_PLACES);
        }
        expect(busiestSecond([...firstTimes, ...watched.map((a) => a.at)], SPAN_MS)).toBe(LIMIT);
        // Each watcher permit costs the first class at most one permit: by any time, it is never
        // further behind its grants with no watcher than the watcher's permits so far.
        const events = [
          ...alone.map((a) => ({ at: a.at, d: 1 })),
          ...firstTimes.map((at) => ({ at, d: -1 })),
          ...watched.map((a) => ({ at: a.at, d: -1 })),
        ].sort((a, b) => a.at - b.at || a.d - b.d);
        // Running (grants with no watcher) − (grants beside it) − (watcher permits), after each
        // moment's events (a moment's own grants and permits counted before its no-watcher grants).
        let balance = 0;
        for (const e of events) {
          balance += e.d;
          expect(balance).toBeLessThanOrEqual(0);
        }
      }
      expect(watcherPermits).toBeGreaterThan(60);
    },
  );

  it("shows the case no rule can cover: ten calls of three tenants right after two watcher permits get eight at once, and two when those permits age out", () => {
    const polls: Arrival[] = [
      { at: 0, tenant: "w0", lane: "watcher", maxWaitMs: WATCHER_WAIT_MS },
      { at: 0, tenant: "w1", lane: "watcher", maxWaitMs: WATCHER_WAIT_MS },
    ];
    const burst: Arrival[] = [
      ...Array.from({ length: 8 }, () => ({ at: 100, tenant: "a" })),
      { at: 100, tenant: "b" },
      { at: 100, tenant: "c" },
    ];
    const alone = answersOf(governorQueue(), burst, burst);
    expect(alone.map((a) => a.at)).toEqual(Array<number>(10).fill(100));
    const beside = answersOf(governorQueue(), burst, [...polls, ...burst]);
    // The two queue for the limit; once the watcher's permits age out, they go a spacing apart
    // (less the catch-up), as any queued calls do.
    expect(beside.map((a) => a.at)).toEqual([
      ...Array<number>(8).fill(100),
      SPAN_MS,
      SPAN_MS - CATCH_UP_MS + SPACING_MS,
    ]);
  });
});

describe("watcher: its share, its priority, its refusals", () => {
  it("holds at most its places of any window, and takes them all when nobody else calls", () => {
    for (const places of [1, 2, 3]) {
      const rand = prng(places);
      const polls = Array.from({ length: 4 }, () => watchers(rand, 30_000)).flat();
      const q = governorQueue(places);
      const times = simulate(q, polls)
        .filter((a) => a.ok)
        .map((a) => a.at);
      expect(busiestSecond(times, SPAN_MS)).toBe(places);
      // Every window of the 30 s full: `places` a window, less the last window's.
      expect(times.length).toBeGreaterThanOrEqual(Math.floor(30_000 / SPAN_MS) * places);
    }
  });

  it("is refused at once, with a Retry-After, while callers wait; with a longer wait it is served only once their queue is empty", () => {
    const q = governorQueue();
    for (let i = 0; i < 30; i++) q.offer("a", PATIENT_MS, 0, i);
    const refused = q.offer("w", WATCHER_WAIT_MS, 0, 100, "watcher");
    expect(refused.outcome).toBe("refused");
    // 22 callers queued at about 9.6 a second: at least 2 s.
    expect(refused.outcome === "refused" && refused.retryAfterSeconds).toBeGreaterThanOrEqual(2);
    expect(q.offer("w", PATIENT_MS, 0, 101, "watcher")).toEqual({ outcome: "queued" });
    const answers = drive(q, 0);
    const lastCaller = Math.max(...answers.filter((a) => a.tenant === "a").map((a) => a.at));
    const watcher = answers.find((a) => a.id === 101);
    expect(watcher?.ok).toBe(true);
    expect(watcher?.at).toBeGreaterThanOrEqual(lastCaller);
    expect(q.laneCounters()["w#watcher"]).toEqual({ permits: 1, waited: 1, refused: 1 });
    // The first class's counters per tenant leave the watcher out.
    expect(Object.keys(q.counters())).toEqual(["a"]);
  });

  it("is off with no places: refused at once, told to come back in a minute", () => {
    const q = governorQueue(0);
    expect(q.offer("w", WATCHER_WAIT_MS, 0, 0, "watcher")).toEqual({
      outcome: "refused",
      retryAfterSeconds: 60,
    });
  });
});

describe("watcher: backs off first after a 429", () => {
  /** A watcher offered at `at`: granted or refused at once (never queued: its wait is short). */
  const poll = (q: FairQueue<number>, at: number) =>
    q.offer("w", WATCHER_WAIT_MS, at, at, "watcher").outcome;

  it("after a first 429, which stops no caller, stays out for WATCHER_BACKOFF_MS", () => {
    const q = governorQueue();
    expect(poll(q, 0)).toBe("granted");
    expect(q.throttled(1, 10, NEWEST)).toBe("nudged");
    expect(q.offer("a", PATIENT_MS, 10, 1).outcome).toBe("granted");
    expect(q.state(10).watcher.backedOffForMs).toBe(WATCHER_BACKOFF_MS);
    expect(poll(q, 10 + WATCHER_BACKOFF_MS - WATCHER_WAIT_MS - 1)).toBe("refused");
    expect(poll(q, 10 + WATCHER_BACKOFF_MS)).toBe("granted");
  });

  it("after a repeated 429, stays out past the callers' pause until the pace is back at its floor", () => {
    const q = governorQueue();
    q.throttled(1, 0, NEWEST);
    expect(q.throttled(5, ECHO_MS, NEWEST)).toBe("slowed");
    const pausedFor = q.state(ECHO_MS).pausedForMs;
    const out = q.state(ECHO_MS).watcher.backedOffForMs;
    expect(pausedFor).toBe(5000);
    expect(out).toBeGreaterThan(WATCHER_BACKOFF_MS);
    const end = ECHO_MS + out;
    // The callers go again when their pause ends; the watcher long after.
    expect(q.offer("a", PATIENT_MS, ECHO_MS + pausedFor, 1).outcome).toBe("granted");
    expect(poll(q, ECHO_MS + pausedFor)).toBe("refused");
    expect(poll(q, end - WATCHER_WAIT_MS - 1)).toBe("refused");
    expect(q.state(end).spacingMs).toBe(q.state(end).floorMs);
    expect(poll(q, end)).toBe("granted");
  });

  it("stays out for the Retry-After when it is longer than WATCHER_BACKOFF_MS", () => {
    const q = governorQueue();
    q.throttled(45, 0, NEWEST);
    expect(poll(q, 45_000 - WATCHER_WAIT_MS - 1)).toBe("refused");
    expect(poll(q, 45_000)).toBe("granted");
  });

  it("waits its turn, never the back-off: a queued watcher is sent away by a 429, and one that would wait it out is refused, with the back-off's Retry-After", () => {
    const q = governorQueue();
    const LONG_MS = 120_000;
    // Two places: the third and fourth watcher queue for the next window.
    for (const w of ["w1", "w2"])
      expect(q.offer(w, LONG_MS, 0, 0, "watcher").outcome).toBe("granted");
    expect(q.offer("w3", LONG_MS, 0, 3, "watcher").outcome).toBe("queued");
    expect(q.offer("w4", LONG_MS, 0, 4, "watcher").outcome).toBe("queued");
    q.throttled(1, 10, NEWEST);
    const drained = q.drain(10);
    expect(drained.granted).toEqual([]);
    expect(drained.refused.map((r) => r.ticket).sort()).toEqual([3, 4]);
    for (const r of drained.refused)
      expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(WATCHER_BACKOFF_MS / 1000);
    const during = q.offer("w5", LONG_MS, 20, 5, "watcher");
    expect(during.outcome).toBe("refused");
    if (during.outcome === "refused")
      expect(during.retryAfterSeconds).toBeGreaterThanOrEqual((WATCHER_BACKOFF_MS - 10) / 1000);
    expect(q.offer("w5", LONG_MS, 10 + WATCHER_BACKOFF_MS, 6, "watcher").outcome).toBe("granted");
  });
});
