/**
 * Lanes of the first class (`upstream/rate/lanes.ts` inside `FairQueue`), on a driven clock: a
 * tenant's assistant is a round-robin key of its own, so its parallel tool calls hold back an order
 * run exactly as another tenant's `/v2` burst would, and an assistant calling all the time takes
 * 1/N of the queued permits among N busy lanes. Counts, order and simulated times only.
 */
import { describe, expect, it } from "vitest";
import { classOf, laneKey, splitLaneKey, watcherPlaces } from "../../../src/upstream/rate/lanes";
import type { Lane } from "../../../src/upstream/client";
import {
  busiestSecond,
  GOVERNOR,
  governorQueue,
  PATIENT_MS,
  simulate,
  type Answer,
  type Arrival,
} from "./simulate";

const { SPACING_MS, SPAN_MS } = GOVERNOR;

/** An order run's steady calls: one every `gapMs` from 0 to `untilMs`, tenant `tenant`. */
const steadyRun = (tenant: string, gapMs: number, untilMs: number): Arrival[] =>
  Array.from({ length: Math.ceil(untilMs / gapMs) }, (_, i) => ({ at: i * gapMs, tenant }));
/** `n` parallel calls of `tenant`'s `lane` at `at`. */
const parallel = (n: number, tenant: string, lane: Lane, at: number): Arrival[] =>
  Array.from({ length: n }, () => ({ at, tenant, lane }));

/** The grant times of the arrivals of `of`, in their order, from a run of `all`. */
function grantsOf(of: Arrival[], all: Arrival[]): number[] {
  const answers = simulate(governorQueue(), all);
  // `simulate` numbers arrivals in time order, ties in the given order (a stable sort).
  const order = [...all].sort((a, b) => a.at - b.at);
  const byId = new Map(answers.map((a) => [a.id, a]));
  return of.map((arrival) => {
    const answer = byId.get(order.indexOf(arrival));
    if (!answer?.ok) throw new Error(`an arrival at ${arrival.at} was not granted`);
    return answer.at;
  });
}

describe("lanes: names, classes and the watcher's places", () => {
  it("keys a tenant's callers by its name, its assistant and watcher beside it; only the watcher is low", () => {
    expect(laneKey("demo:acme", "caller")).toBe("demo:acme");
    expect(laneKey("demo:acme", "assistant")).toBe("demo:acme#assistant");
    expect(laneKey("demo:acme", "watcher")).toBe("demo:acme#watcher");
    expect([classOf("caller"), classOf("assistant"), classOf("watcher")]).toEqual([
      "first",
      "first",
      "low",
    ]);
    for (const lane of ["caller", "assistant", "watcher"] as const)
      expect(splitLaneKey(laneKey("demo:acme", lane))).toEqual({ tenant: "demo:acme", lane });
    // Onboarding's queue and any name without a known lane after a `#` are callers.
    expect(splitLaneKey("demo:#other")).toEqual({ tenant: "demo:#other", lane: "caller" });
  });

  it("turns a share into whole places: at least one for any share above 0, never the whole window", () => {
    expect(watcherPlaces(10, 0.2)).toBe(2);
    expect(watcherPlaces(10, 0.3)).toBe(3);
    expect(watcherPlaces(10, 0.05)).toBe(1);
    expect(watcherPlaces(10, 0)).toBe(0);
    expect(watcherPlaces(3, 0.2)).toBe(1);
    expect(watcherPlaces(1, 0.5)).toBe(0);
  });
});

describe("lanes: an assistant's burst beside an order run", () => {
  const run = steadyRun("shop", 250, 12_000);

  it("holds back another tenant's run exactly as that tenant's /v2 burst of 20 would", () => {
    const asAssistant = parallel(20, "other", "assistant", 2000);
    const asCaller = parallel(20, "other", "caller", 2000);
    expect(grantsOf(run, [...run, ...asAssistant])).toEqual(grantsOf(run, [...run, ...asCaller]));
  });

  it("holds back its own tenant's run exactly as another tenant's burst would, where one queue for both put the run behind all twenty", () => {
    const own = parallel(20, "shop", "assistant", 2000);
    const others = parallel(20, "other", "assistant", 2000);
    const withOwn = grantsOf(run, [...run, ...own]);
    expect(withOwn).toEqual(grantsOf(run, [...run, ...others]));
    // Without lanes (the assistant's calls in the tenant's own queue), the run's first call after
    // the burst waits for every one of the twenty still queued ahead of it.
    const oneQueue = grantsOf(run, [...run, ...parallel(20, "shop", "caller", 2000)]);
    const alone = grantsOf(run, run);
    const worst = (times: number[]) => Math.max(...times.map((t, i) => t - (alone[i] ?? 0)));
    expect(worst(oneQueue)).toBeGreaterThan(10 * SPACING_MS);
    expect(worst(withOwn)).toBeLessThan(worst(oneQueue) / 2);
  });

  it("keeps the run's share within the bound: a run at up to half the pace loses no call, and none comes more than one window and one spacing later than alone", () => {
    // The bound: the burst's calls that go at once can fill the window once, which frees within
    // one window; from then on round-robin serves the run's lane every other permit, which a run
    // at up to half the pace (4.8 calls a second) never outruns, so each call waits at most one
    // of the assistant's permits more.
    const bound = SPAN_MS + SPACING_MS;
    for (const gapMs of [210, 250, 400, 1000])
      for (const size of [8, 20, 50])
        for (let offset = 0; offset < 1000; offset += 111) {
          const steady = steadyRun("shop", gapMs, 15_000);
          const burst = parallel(size, "shop", "assistant", 3000 + offset);
          const alone = grantsOf(steady, steady);
          const beside = grantsOf(steady, [...steady, ...burst]);
          expect(beside).toHaveLength(alone.length);
          beside.forEach((t, i) => expect(t - (alone[i] ?? 0)).toBeLessThanOrEqual(bound));
        }
  });

  it("serves the run every other permit while both wait: never two of the assistant's in a row", () => {
    const answers = simulate(governorQueue(), [
      ...steadyRun("shop", 100, 6000),
      ...parallel(40, "shop", "assistant", 1000),
    ]);
    const waited = answers.filter((a) => a.ok && a.at >= 1000 && a.at <= 5000);
    // Whenever the run's lane has a call queued, the next grant after an assistant's is the run's.
    let checked = 0;
    for (let i = 1; i < waited.length; i++)
      if (waited[i - 1]?.lane === "assistant" && runWaiting(answers, waited[i]?.at ?? 0)) {
        expect(waited[i]?.lane).toBe("caller");
        checked++;
      }
    expect(checked).toBeGreaterThan(15);
  });
});

/** Whether a call of the run (lane `caller`) arrived before `at` and was granted at or after it. */
function runWaiting(answers: Answer[], at: number): boolean {
  // Arrivals of the run are every 100 ms from 0, numbered in time order with the burst: the run's
  // call granted at `at` or later arrived at (its index among the run's calls) × 100.
  const run = answers.filter((a) => a.lane === "caller").sort((a, b) => a.id - b.id);
  return run.some((a, i) => i * 100 < at && a.at >= at);
}

describe("lanes: an assistant calling all the time", () => {
  /** Grants per lane key over `ms` while every lane in `lanes` keeps a backlog. */
  function shares(lanes: [string, Lane][], ms: number): Record<string, number> {
    const arrivals = lanes.flatMap(([tenant, lane]) => parallel(400, tenant, lane, 0));
    const counts: Record<string, number> = {};
    for (const a of simulate(governorQueue(), arrivals))
      if (a.ok && a.at <= ms) {
        const key = a.lane === "caller" ? a.tenant : `${a.tenant}#${a.lane}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
    return counts;
  }

  it("takes every queued permit when alone, half beside its own tenant's busy callers, and 1/N among N busy lanes", () => {
    const alone = shares([["acme", "assistant"]], 20_000);
    const beside = shares(
      [
        ["acme", "caller"],
        ["acme", "assistant"],
      ],
      20_000,
    );
    const four = shares(
      [
        ["acme", "caller"],
        ["acme", "assistant"],
        ["b", "caller"],
        ["c", "caller"],
      ],
      20_000,
    );
    const total = (c: Record<string, number>) => Object.values(c).reduce((x, y) => x + y, 0);
    expect(alone["acme#assistant"]).toBe(total(alone));
    // One permit per busy lane per turn: counts differ by the burst's at-once start at most.
    expect(Math.abs((beside["acme#assistant"] ?? 0) - total(beside) / 2)).toBeLessThanOrEqual(4);
    expect(Math.abs((four["acme#assistant"] ?? 0) - total(four) / 4)).toBeLessThanOrEqual(4);
    // The total is the pace, whoever takes it: 9.6 a second over 20 s, plus the first burst.
    for (const c of [alone, beside, four]) expect(total(c)).toBeGreaterThan(190);
  });
});

/**
 * A closed loop, as bench part 12d runs it: `shops` tenants whose order runs call one at a time
 * (each next call `thinkMs` after its last grant), and an assistant's `burst` parallel calls at 0.
 * Returns the assistant's grant times (in order) and every grant's, up to `untilMs`.
 */
function assistantBesideShops(shops: number, burst: number, thinkMs: number, untilMs: number) {
  const q = governorQueue();
  const next = new Map<string, number>();
  for (let i = 0; i < shops; i++) next.set(`shop${i}`, i * 7);
  const granted: number[] = [];
  const all: number[] = [];
  const grant = (tenant: string, lane: Lane, at: number) => {
    all.push(at);
    if (lane === "assistant") granted.push(at);
    else next.set(tenant, at + thinkMs);
  };
  for (let i = 0; i < burst; i++) {
    const offer = q.offer("other", PATIENT_MS, 0, i, "assistant");
    if (offer.outcome === "granted") grant("other", "assistant", 0);
  }
  let wakeAt = q.drain(0).wakeAt;
  for (;;) {
    const arrivals = [...next.values()];
    const now = Math.min(...arrivals, wakeAt ?? Infinity);
    if (now > untilMs) return { granted, all };
    for (const [tenant, at] of next)
      if (at === now) {
        next.set(tenant, Infinity);
        const offer = q.offer(tenant, PATIENT_MS, now, -1);
        if (offer.outcome === "granted") grant(tenant, "caller", now);
      }
    const drained = q.drain(now);
    for (const g of drained.granted) grant(g.tenant, g.lane, now);
    wakeAt = drained.wakeAt;
  }
}

describe("lanes: a queued lane beside tenants that call one at a time", () => {
  it("gets one permit in every round of the busy lanes, not less: the runs' calls do not take its turns through the burst's reserve", () => {
    // Twenty order runs, each calling again 50 ms after its permit, and 20 tool calls at 0: 21 busy
    // lanes share 10 permits a second, so round-robin serves the assistant one permit per 21, about
    // one every 2.2 s once its burst has gone (bench part 12d's tool calls, which wait that long).
    // A run's next call finds the window full and queues; were the reserve's places open to it
    // while the assistant waits, the runs would take every place the window frees.
    const { granted, all } = assistantBesideShops(20, 20, 50, 30_000);
    const fairShare = (30_000 / 1000) * (GOVERNOR.LIMIT * (1 - GOVERNOR.MARGIN)) * (1 / 21);
    expect(granted.length).toBeGreaterThanOrEqual(Math.floor(fairShare * 0.9));
    // Its first calls went at once into the empty window (a burst), the rest one per round.
    expect(granted.filter((t) => t === 0).length).toBe(GOVERNOR.LIMIT - GOVERNOR.RESERVE);
    const gaps = granted
      .slice(GOVERNOR.LIMIT - GOVERNOR.RESERVE + 1)
      .map((t, i, a) => t - (a[i - 1] ?? t));
    for (const gap of gaps.slice(1)) expect(gap).toBeCloseTo(21 * GOVERNOR.SPACING_MS, 0);
    // The runs kept going beside it, and no second at the API held more than the limit.
    expect(all.length - granted.length).toBeGreaterThan(200);
    expect(busiestSecond(all)).toBeLessThanOrEqual(GOVERNOR.LIMIT);
  });
});
