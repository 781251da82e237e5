/**
 * When a watcher's next cycle is due (`src/events/watcher/object/cycle.ts`, `nextCycleAt`): a cycle
 * later; after the API's 429 not before its Retry-After; after the governor refused a permit, at
 * its Retry-After (at least 5 s), never later than the next cycle.
 */
import { describe, expect, it } from "vitest";
import { nextCycleAt, type CycleRun } from "../../../../src/events/watcher/object/cycle";

describe("watcher: when the next cycle is due", () => {
  const T = Date.UTC(2026, 10, 26, 12);
  const run = (outcome: CycleRun["outcome"], retryAfterSeconds = 0): CycleRun => ({
    calls: 1,
    delays: [],
    outcome,
    retryAfterSeconds,
  });

  it("a cycle later; after a 429 not before its Retry-After; after a refused permit soon, within the cycle", () => {
    expect(nextCycleAt(T, 40_000, run("ok"), T + 2000)).toBe(T + 40_000);
    expect(nextCycleAt(T, 40_000, run("throttled", 120), T + 2000)).toBe(T + 122_000);
    expect(nextCycleAt(T, 40_000, run("no-permit", 1), T + 2000)).toBe(T + 7000);
    expect(nextCycleAt(T, 40_000, run("no-permit", 30), T + 2000)).toBe(T + 32_000);
    expect(nextCycleAt(T, 40_000, run("no-permit", 90), T + 2000)).toBe(T + 40_000);
  });
});
