/**
 * Bursts into a free second, on a driven clock: the window of `upstream/rate/grant-window.ts`
 * inside `FairQueue`. Counts, order and simulated times only, never wall-clock time.
 */
import { describe, expect, it } from "vitest";
import { FairQueue } from "../../../src/upstream/rate/fair-queue";
import { BURST_RECOVERY_MS, GrantWindow } from "../../../src/upstream/rate/grant-window";
import { ECHO_MS, Pacer } from "../../../src/upstream/rate/pacer";
import { PATIENT_MS, busiestSecond, prng, simulate, type Answer, type Arrival } from "./simulate";

/** The governor's settings: 10 a second, a 4 % margin, 5 ms catch-up, two places reserved. */
const LIMIT = 10;
const MARGIN = 0.04;
const CATCH_UP_MS = 5;
const RESERVE = 2;
const SPACING_MS = 1000 / (LIMIT * (1 - MARGIN));
const TRANSIT_MS = 1000 / (1 - MARGIN) - 1000 - CATCH_UP_MS;
const SPAN_MS = 1000 + TRANSIT_MS;
const EPSILON = 1e-6;
const NEWEST = Number.MAX_SAFE_INTEGER;

const window = () =>
  new GrantWindow({ limit: LIMIT, transitMarginMs: TRANSIT_MS, reserve: RESERVE });
const queue = () =>
  new FairQueue<number>(
    new Pacer({ limit: LIMIT, margin: MARGIN, catchUpMs: CATCH_UP_MS }),
    window(),
  );
const burst = (n: number, tenant: string, at = 0): Arrival[] =>
  Array.from({ length: n }, () => ({ at, tenant }));
const granted = (answers: Answer[], tenant?: string) =>
  answers.filter((a) => a.ok && (tenant === undefined || a.tenant === tenant));

describe("grant window: bursts into a free second", () => {
  it("grants a burst of 8 at once into an empty window, with no spacing", () => {
    const answers = simulate(queue(), burst(8, "a"));
    expect(answers.map((a) => [a.ok, a.at])).toEqual(Array.from({ length: 8 }, () => [true, 0]));
  });

  it("keeps the reserve: one tenant's burst of 20 gets limit − reserve at once, the rest paced", () => {
    const q = queue();
    const answers = simulate(q, burst(20, "a"));
    expect(granted(answers).filter((a) => a.at === 0)).toHaveLength(LIMIT - RESERVE);
    expect(q.counters()).toEqual({
      a: { permits: 20, waited: 20 - (LIMIT - RESERVE), refused: 0 },
    });
  });

  it("paces once the window is full: the 11th waits for the first to age out, then every grant is one spacing after the last (less the catch-up, once)", () => {
    const answers = granted(simulate(queue(), burst(40, "a")));
    expect(answers[8]?.at).toBeCloseTo(SPACING_MS, 6); // the reserve, paced
    expect(answers[9]?.at).toBeCloseTo(2 * SPACING_MS, 6);
    expect(answers[10]?.at).toBeCloseTo(SPAN_MS, 6); // the window, full until the burst ages out
    const later = answers.slice(10).map((a) => a.at);
    // The pace takes the 11th as late (it was due long before) and makes up CATCH_UP_MS once.
    expect((later[1] ?? 0) - (later[0] ?? 0)).toBeCloseTo(SPACING_MS - CATCH_UP_MS, 6);
    later.slice(2).forEach((t, i) => expect(t - (later[i + 1] ?? 0)).toBeCloseTo(SPACING_MS, 6));
  });

  it("serves demand above the quota as before: 9.6 permits a second once the burst is spent", () => {
    const answers = granted(simulate(queue(), burst(200, "a")));
    const last = answers.at(-1)?.at ?? 0;
    // 8 at once, then one spacing each: the backlog's rate is the pace's, not more, not less.
    expect(last).toBeCloseTo(SPAN_MS + (200 - 11) * SPACING_MS - CATCH_UP_MS, 3);
  });

  it("never lets a window of one second plus the margin hold more than the limit, nor the API's second when arrivals lag grants by up to the margin, over 200 seeded random patterns", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = prng(seed);
      const arrivals: Arrival[] = [];
      const tenants = 1 + Math.floor(rand() * 5);
      // Clusters of bursts and lone calls over 5 s: idle gaps, overlaps and backlogs all occur.
      for (let c = 0; c < 12; c++) {
        const at = Math.floor(rand() * 5000);
        const size = 1 + Math.floor(rand() * 14);
        for (let i = 0; i < size; i++)
          arrivals.push({
            at: at + Math.floor(rand() * 30),
            tenant: `t${Math.floor(rand() * tenants)}`,
          });
      }
      const answers = simulate(queue(), arrivals);
      expect(answers.every((a) => a.ok)).toBe(true);
      const grants = granted(answers).map((a) => a.at);
      expect(grants).toHaveLength(arrivals.length);
      expect(busiestSecond(grants, SPAN_MS - EPSILON)).toBeLessThanOrEqual(LIMIT);
      const atApi = grants.map((g) => g + rand() * TRANSIT_MS);
      expect(busiestSecond(atApi)).toBeLessThanOrEqual(LIMIT);
    }
  });
});

describe("grant window: fairness while one tenant bursts", () => {
  it("serves another tenant's first call at once from the reserve, one place per tenant, while the burst's rest queues", () => {
    const answers = simulate(queue(), [
      ...burst(20, "a"),
      { at: 50, tenant: "b" },
      { at: 60, tenant: "c" },
      { at: 70, tenant: "d" },
      { at: 80, tenant: "b" },
    ]);
    const first = (t: string) => granted(answers, t)[0]?.at;
    expect(first("b")).toBe(50);
    expect(first("c")).toBe(60);
    expect(first("d")).toBeGreaterThan(70); // the window is full: d queues
    expect(granted(answers, "b")[1]?.at).toBeGreaterThan(80); // b holds a place already
  });

  it("goes round-robin once the window is full: B's 5 calls behind A's burst of 40 are all among the next 10 grants", () => {
    const answers = simulate(queue(), [...burst(40, "a"), ...burst(5, "b", 400)]);
    const after = granted(answers).filter((a) => a.at >= 400);
    expect(after.slice(0, 10).filter((a) => a.tenant === "b")).toHaveLength(5);
  });

  it("never grants a newcomer at once ahead of a full window, nor during a pause", () => {
    const q = queue();
    simulate(q, burst(LIMIT, "a"));
    expect(q.offer("z", PATIENT_MS, 500, 99)).toEqual({ outcome: "queued" });
    const p = queue();
    expect(p.throttled(1, 0, NEWEST)).toBe("nudged");
    expect(p.throttled(3, ECHO_MS, NEWEST)).toBe("slowed");
    expect(p.offer("y", PATIENT_MS, ECHO_MS + 10, 0)).toEqual({ outcome: "queued" });
  });
});

describe("grant window: when the API answers a burst with 429", () => {
  it("learns a smaller burst: halves it, never above the depth of the throttled permit, and falls back to pacing", () => {
    const q = queue();
    const first = granted(simulate(q, burst(8, "a")));
    expect(q.state(0).burst).toBe(LIMIT);
    // The API took 5 of the 8 (a fixed half-second window of 5, say): the 6th drew the 429.
    expect(q.throttled(1, 20, first[5]?.permit ?? -1)).toBe("nudged");
    expect(q.state(20).burst).toBe(5);
    const t = 20 + 2 * SPAN_MS;
    const second = granted(simulate(q, burst(8, "a", t)));
    expect(second.filter((a) => a.at === t)).toHaveLength(5 - RESERVE);
    // A second 429 within the calm spell: the burst halves again, to pacing.
    expect(q.throttled(1, t + 50, second[3]?.permit ?? -1)).toBe("slowed");
    expect(q.state(t + 50).burst).toBe(2);
    const u = t + 10_000;
    const third = granted(simulate(q, burst(4, "a", u)));
    expect(third.filter((a) => a.at === u)).toHaveLength(1);
    third
      .slice(1)
      .forEach((a, i) => expect(a.at - (third[i]?.at ?? 0)).toBeGreaterThan(SPACING_MS));
  });

  it("grows the burst back by one every BURST_RECOVERY_MS without a 429, up to the limit", () => {
    const w = window();
    w.record(0, "a", 0);
    w.throttled(0, 0);
    expect(w.burst(0)).toBe(1);
    expect(w.burst(BURST_RECOVERY_MS - 1)).toBe(1);
    expect(w.burst(BURST_RECOVERY_MS)).toBe(2);
    expect(w.burst(100 * BURST_RECOVERY_MS)).toBe(LIMIT);
  });

  it("learns nothing from an echo: the rest of a burst already judged", () => {
    const q = queue();
    const first = granted(simulate(q, burst(8, "a")));
    q.throttled(1, 20, first[5]?.permit ?? -1);
    expect(q.throttled(1, 21, first[6]?.permit ?? -1)).toBe("echo");
    expect(q.state(21).burst).toBe(5);
  });
});

describe("grant window: settings", () => {
  it("refuses a reserve that leaves no burst, a negative margin and a limit that is not a positive integer", () => {
    expect(() => new GrantWindow({ limit: 10, transitMarginMs: 30, reserve: 10 })).toThrow(
      TypeError,
    );
    expect(() => new GrantWindow({ limit: 10, transitMarginMs: -1, reserve: 2 })).toThrow(
      TypeError,
    );
    expect(() => new GrantWindow({ limit: 0, transitMarginMs: 30, reserve: 0 })).toThrow(TypeError);
  });
});
