/**
 * A caller reports a call that left late (`upstream/departure.ts`), on a driven clock: the
 * yield is a promise the test resolves, the time a number it sets.
 */
import { describe, expect, it } from "vitest";
import { LATE_DEPARTURE_MS, leaving, watchDeparture } from "../../src/upstream/departure";

const GRANTED_AT = 1_000_000;

/** A clock that reads `t` once the isolate "gets back" (the yield resolves at once here). */
const clockAt = (t: number) => ({ now: () => t, settle: () => Promise.resolve() });

/** A governor's `departed` that records its reports, or fails every one. */
function sink(fails = false) {
  const reports: [number, number][] = [];
  return {
    reports,
    departed(permit: number, at: number) {
      reports.push([permit, at]);
      return fails ? Promise.reject(new Error("RPC lost")) : Promise.resolve();
    },
  };
}

describe("late departures: what a caller reports", () => {
  it("reports nothing when the caller gets back to the call within the threshold", async () => {
    const s = sink();
    const permit = { permit: 7, grantedAt: GRANTED_AT };
    expect(await watchDeparture(s, permit, clockAt(GRANTED_AT + 1))).toBe(false);
    expect(await watchDeparture(s, permit, clockAt(GRANTED_AT + LATE_DEPARTURE_MS))).toBe(false);
    expect(s.reports).toEqual([]);
  });

  it("reports the permit and the time it got back when that is later than the threshold", async () => {
    const s = sink();
    const late = GRANTED_AT + LATE_DEPARTURE_MS + 60;
    expect(await watchDeparture(s, { permit: 7, grantedAt: GRANTED_AT }, clockAt(late))).toBe(true);
    expect(s.reports).toEqual([[7, late]]);
  });

  it("looks at the clock only after the yield: time spent before the isolate gets back counts", async () => {
    const s = sink();
    let t = GRANTED_AT + 2;
    const watching = watchDeparture(
      s,
      { permit: 3, grantedAt: GRANTED_AT },
      {
        now: () => t,
        settle: () =>
          Promise.resolve().then(() => {
            t = GRANTED_AT + 90; // other work ran before the yield came back
          }),
      },
    );
    expect(await watching).toBe(true);
    expect(s.reports).toEqual([[3, GRANTED_AT + 90]]);
  });

  it("never rejects when the report is lost", async () => {
    const s = sink(true);
    const late = GRANTED_AT + 500;
    await expect(
      watchDeparture(s, { permit: 1, grantedAt: GRANTED_AT }, clockAt(late)),
    ).resolves.toBe(true);
    expect(s.reports).toEqual([[1, late]]);
  });
});

describe("leaving: a call handed over under a permit", () => {
  it("answers the call's own answer, and reports a late one when the isolate gets back", async () => {
    const s = sink();
    const answer = await leaving(s, { permit: 3, grantedAt: 0 }, Promise.resolve("answered"));
    expect(answer).toBe("answered");
    // The report goes after the isolate's yield, not before the answer is handed back.
    await scheduler.wait(5);
    expect(s.reports.map(([permit]) => permit)).toEqual([3]);
  });

  it("reports nothing for a call that left with its grant", async () => {
    const s = sink();
    const grantedAt = Date.now() + 60_000;
    await leaving(s, { permit: 4, grantedAt }, Promise.resolve(null));
    await scheduler.wait(5);
    expect(s.reports).toEqual([]);
  });
});
