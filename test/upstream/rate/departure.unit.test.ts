/**
 * Late departures (issue 27): a call whose caller was held up after its permit is counted by the
 * window from when it left (`GrantWindow.departed` through `FairQueue.departed`), on a driven
 * clock. Counts and simulated times only, never wall-clock time.
 */
import { describe, expect, it } from "vitest";
import { GrantWindow } from "../../../src/upstream/rate/grant-window";
import { LATE_DEPARTURE_MS } from "../../../src/upstream/departure";
import { GOVERNOR, busiestSecond, governorQueue, simulate, type Arrival } from "./simulate";

const { LIMIT, RESERVE, SPAN_MS, TRANSIT_MS, UNREPORTED_MS } = GOVERNOR;
/** How late the held-up call leaves, ms: the 75–230 ms of the trace, well past the margin. */
const LATE_MS = 80;
/** Which grant of the backlog leaves late: one well into the paced part, after the first burst. */
const LATE_INDEX = 20;

/** A backlog of 60 calls of one tenant at 0: 8 at once, then paced, the window full throughout. */
const backlog: Arrival[] = Array.from({ length: 60 }, () => ({ at: 0, tenant: "a" }));

/**
 * Runs the backlog; grant number `LATE_INDEX` leaves `LATE_MS` after its grant, and, if `report`,
 * its caller says so at the governor's next wake after that. The times each call left.
 */
function run(report: boolean): number[] {
  const q = governorQueue();
  let late: { permit: number; leftAt: number } | null = null;
  let reported = false;
  const answers = simulate(q, backlog, (now, so) => {
    const grant = so.filter((a) => a.ok)[LATE_INDEX];
    if (!late && grant?.permit !== undefined)
      late = { permit: grant.permit, leftAt: grant.at + LATE_MS };
    if (report && late && !reported && now >= late.leftAt) {
      expect(q.departed(late.permit, late.leftAt, now)).toBe(true);
      reported = true;
    }
  });
  const left = answers.filter((a) => a.ok).map((a) => a.at);
  expect(left).toHaveLength(backlog.length);
  left[LATE_INDEX] = (left[LATE_INDEX] ?? 0) + LATE_MS;
  return left;
}

describe("late departures: counted from when the call left", () => {
  it("without a report, one call leaving 80 ms late puts eleven calls into one of the API's seconds", () => {
    // The pace alone keeps ten grants 1036.7 ms apart: 80 ms late is more than the margin covers.
    expect(busiestSecond(run(false))).toBe(LIMIT + 1);
  });

  it("with the report, the tenth call after it waits: no second at the API holds more than the limit, whatever the way adds within the margin", () => {
    const left = run(true);
    // The late call counts from UNREPORTED_MS before it left: the other calls may have left that
    // late unreported, and the margin holds both.
    const counted = left.map((t, i) => (i === LATE_INDEX ? t - UNREPORTED_MS : t));
    expect(busiestSecond(counted, SPAN_MS - 1e-6)).toBeLessThanOrEqual(LIMIT);
    // Arrivals lag their counted time by 0 to the margin. The late call the quickest (it arrives
    // as it leaves), the rest the slowest:
    const early = left.map((t, i) => t + (i === LATE_INDEX ? 0 : TRANSIT_MS));
    expect(busiestSecond(early)).toBeLessThanOrEqual(LIMIT);
    // the late call the slowest the margin allows after its counted time, the rest the quickest:
    const slow = left.map((t, i) => t + (i === LATE_INDEX ? TRANSIT_MS - UNREPORTED_MS : 0));
    expect(busiestSecond(slow)).toBeLessThanOrEqual(LIMIT);
  });

  it("counts a reported call from the lateness callers leave unreported before it left, never before its grant", () => {
    expect(UNREPORTED_MS).toBe(LATE_DEPARTURE_MS);
    const w = new GrantWindow({
      limit: LIMIT,
      transitMarginMs: TRANSIT_MS,
      reserve: RESERVE,
      unreportedLatenessMs: UNREPORTED_MS,
    });
    [0, 100].forEach((t, i) => w.record(t, "a", i + 1));
    // Left 10 ms late: inside what goes unreported, so nothing moves.
    expect(w.departed(1, 10, 110)).toBe(false);
    // Left 60 ms late: counted from 45, after 100's grant no longer; the window stays oldest first.
    expect(w.departed(1, 60, 110)).toBe(true);
    expect(w.freeAt(110, 2)).toBe(45 + SPAN_MS);
    expect(w.departed(2, 200, 210)).toBe(true);
    expect(w.freeAt(210, 1)).toBe(185 + SPAN_MS);
    expect(
      () =>
        new GrantWindow({
          limit: LIMIT,
          transitMarginMs: TRANSIT_MS,
          reserve: RESERVE,
          unreportedLatenessMs: TRANSIT_MS + 1,
        }),
    ).toThrow(TypeError);
  });

  it("moves only a grant still in the window to a later time, and keeps the window oldest first", () => {
    const w = new GrantWindow({ limit: LIMIT, transitMarginMs: TRANSIT_MS, reserve: RESERVE });
    [0, 100, 200].forEach((t, i) => w.record(t, "a", i + 1));
    expect(w.departed(1, 150, 210)).toBe(true); // permit 1 now counts from 150, after 100
    expect(w.departed(1, 120, 210)).toBe(false); // already counted from later
    expect(w.departed(9, 150, 210)).toBe(false); // no such permit
    // Oldest first: the window frees its first place when 100 ages out, then 150's, then 200's.
    expect(w.freeAt(210, 3)).toBe(100 + SPAN_MS);
    expect(w.freeAt(210, 2)).toBe(150 + SPAN_MS);
    // A departure stamped ahead of the window's clock counts from now.
    expect(w.departed(3, 5000, 300)).toBe(true);
    expect(w.freeAt(300, 1)).toBe(300 + SPAN_MS);
    // Once aged out, a grant cannot be moved back in.
    expect(w.departed(2, 2000, 100 + SPAN_MS + 1000)).toBe(false);
  });
});
