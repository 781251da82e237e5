import { describe, expect, it } from "vitest";
import { PermitRing, RING_SECONDS } from "../../../src/upstream/rate/permit-ring";

describe("permit ring", () => {
  it("counts per second over the last minute, oldest first, and forgets older seconds", () => {
    const ring = new PermitRing();
    const t = 1_700_000_000_000;
    ring.add(t);
    ring.add(t + 10);
    ring.add(t + 1000);
    const s = ring.series(t + 1000);
    expect(s).toHaveLength(RING_SECONDS);
    expect(s.slice(-2)).toEqual([2, 1]);
    expect(ring.series(t + 59_000).at(0)).toBe(2);
    expect(ring.series(t + 60_000).reduce((a, b) => a + b, 0)).toBe(1);
    ring.add(t + 60_000);
    expect(ring.series(t + 60_000).slice(-1)).toEqual([1]);
    expect(ring.series(t + 200_000).every((n) => n === 0)).toBe(true);
  });
});
