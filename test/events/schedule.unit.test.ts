/**
 * The retry schedule (`src/events/schedule.ts`): written as waits, ≥ 24 h by default, jittered,
 * honouring a longer Retry-After, and used up after its last wait.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_SCHEDULE,
  MAX_WAIT_SECONDS,
  nextWait,
  parseSchedule,
  retryWindowSeconds,
} from "../../src/events/schedule";

describe("retry schedule", () => {
  it("reads waits in seconds, minutes and hours", () => {
    expect(parseSchedule("5s 5m, 2h")).toEqual({ ok: true, value: [5, 300, 7200] });
  });

  it("retries for more than a day by default", () => {
    const waits = parseSchedule(DEFAULT_RETRY_SCHEDULE);
    if (!waits.ok) throw new Error(waits.error);
    expect(waits.value).toHaveLength(7);
    expect(retryWindowSeconds(waits.value)).toBeGreaterThan(24 * 3600);
    expect(Math.max(...waits.value)).toBeLessThanOrEqual(MAX_WAIT_SECONDS);
  });

  it("refuses what it cannot read, no waits, too many, and a wait over 12 h", () => {
    for (const text of ["", "5", "5d", "-1s", "13h", "1s ".repeat(13)])
      expect(parseSchedule(text).ok, text).toBe(false);
  });

  it("jitters each wait by at most 10 %, takes a longer Retry-After, and ends after the last wait", () => {
    const waits = [100, 1000];
    expect(nextWait(waits, 1, null, 0)).toBe(90);
    expect(nextWait(waits, 1, null, 0.999_999)).toBe(110);
    expect(nextWait(waits, 2, null, 0.5)).toBe(1000);
    expect(nextWait(waits, 1, 600, 0.5)).toBe(600);
    expect(nextWait(waits, 1, 5, 0.5)).toBe(100);
    expect(nextWait(waits, 3, null, 0.5)).toBeNull();
  });
});
