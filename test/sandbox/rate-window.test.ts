/**
 * The sandbox's rate limit counted by arrival (`sandbox/src/lib/rate-window.ts`), on a driven
 * clock: arrival stamps and decision times are numbers, never wall-clock time.
 */
import { describe, expect, it } from "vitest";
import { ArrivalWindow, type RateRule } from "../../sandbox/src/lib/rate-window";

const SLIDING: RateRule = { perSecond: 10, fixedWindowMs: null };

/** Decides `arrivals` (each `[arrivedAt, decidedAt]`) in the order given; the answers. */
const decide = (w: ArrivalWindow, arrivals: [number, number][], rule = SLIDING) =>
  arrivals.map(([arrivedAt, now]) => w.take(arrivedAt, now, rule));

describe("sandbox rate limit: counted by arrival", () => {
  it("lets 10 calls into a rolling second and refuses the 11th until the first ages out", () => {
    const w = new ArrivalWindow();
    const times = Array.from({ length: 10 }, (_, i) => i * 100);
    expect(
      decide(
        w,
        times.map((t) => [t, t]),
      ),
    ).toEqual(Array.from({ length: 10 }, () => 0));
    expect(w.take(999, 999, SLIDING)).toBe(1); // (−1, 999] holds all ten
    expect(w.take(1000, 1000, SLIDING)).toBe(0); // the call at 0 is out of (0, 1000]
  });

  it("counts a call when it arrived, not when the object got to it: calls held up together do not crowd the next second", () => {
    // Eight calls arrive 0–33 ms but are decided 39–123 ms after (the object was busy), as traced
    // in a run of 100 orders; two more arrive at 392 and 570. A call arriving at 1010 finds six in
    // (10, 1010] (four of the eight and the two): room, as the API would see it.
    const w = new ArrivalWindow();
    const held: [number, number][] = [0, 1, 2, 3, 13, 14, 33, 33].map((t, i) => [t, 72 + i * 10]);
    expect(decide(w, held)).toEqual(Array.from({ length: 8 }, () => 0));
    expect(
      decide(w, [
        [392, 393],
        [570, 571],
        [1010, 1011],
      ]),
    ).toEqual([0, 0, 0]);
    // Stamped when decided (72–142 ms), all eight would still count at 1010: the 11th of a second.
    const stampedLate = new ArrivalWindow();
    const late: [number, number][] = held.map(([, decided]) => [decided, decided]);
    expect(decide(stampedLate, [...late, [392, 392], [570, 570], [1010, 1010]])).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
    ]);
  });

  it("admits a call decided after later arrivals only if every second it falls in keeps the limit", () => {
    const w = new ArrivalWindow();
    // Nine calls at 100–900, then one that arrived at 1050 is decided before one that arrived at
    // 950: the second (50, 1050] would hold eleven with both, so the late-decided one is refused.
    expect(
      decide(
        w,
        Array.from({ length: 9 }, (_, i) => [(i + 1) * 100, (i + 1) * 100]),
      ),
    ).toEqual(Array.from({ length: 9 }, () => 0));
    expect(w.take(1050, 1051, SLIDING)).toBe(0); // (50, 1050]: nine before it, it is the tenth
    expect(w.take(950, 1052, SLIDING)).toBe(1); // it would be the eleventh of (50, 1050]
    expect(w.take(1101, 1101, SLIDING)).toBe(0); // (101, 1101]: 200–900 and 1050, nine
  });

  it("takes an arrival stamp from a clock ahead of the object's as now", () => {
    const w = new ArrivalWindow();
    expect(
      decide(
        w,
        Array.from({ length: 10 }, (_, i) => [i, i]),
      ),
    ).toEqual(Array.from({ length: 10 }, () => 0));
    // Stamped 5 s ahead, it would find an empty second; taken as now (20), it is the eleventh.
    expect(w.take(5020, 20, SLIDING)).toBe(1);
  });

  it("counts a fixed window from its start when one is set", () => {
    const w = new ArrivalWindow();
    const rule: RateRule = { perSecond: 3, fixedWindowMs: 1000 };
    expect(
      decide(
        w,
        [
          [990, 990],
          [995, 995],
          [998, 998],
          [999, 999],
        ],
        rule,
      ),
    ).toEqual([0, 0, 0, 1]);
    expect(w.take(1000, 1000, rule)).toBe(0); // a new window, whatever the last second held
  });

  it("takes every call as older after a clock skip, and forgets them on clear", () => {
    const w = new ArrivalWindow();
    decide(
      w,
      Array.from({ length: 10 }, (_, i) => [i, i]),
    );
    expect(w.take(500, 500, SLIDING)).toBe(1);
    w.skip(600);
    expect(w.take(500, 500, SLIDING)).toBe(0);
    w.clear();
    expect(
      decide(
        w,
        Array.from({ length: 10 }, () => [501, 501]),
      ),
    ).toEqual(Array.from({ length: 10 }, () => 0));
  });

  it("says which admitted calls filled the second before a refused one, as ms before it", () => {
    const w = new ArrivalWindow();
    const arrivals = Array.from({ length: 10 }, (_, i): [number, number] => [i * 50, i * 50]);
    expect(decide(w, arrivals)).toEqual(arrivals.map(() => 0));
    expect(decide(w, [[600, 600]])).toEqual([1]);
    expect(w.before(600)).toEqual([600, 550, 500, 450, 400, 350, 300, 250, 200, 150]);
    // A second later the first of them no longer counts.
    expect(w.before(1000)).toEqual([950, 900, 850, 800, 750, 700, 650, 600, 550]);
  });
});
