/**
 * The pace of `lib/rate/pacer.ts` on a driven clock: spacing, the floor, pauses, slowing down after
 * a 429 and creeping back. Counts and times on the simulated clock only, never wall-clock time.
 */
import { describe, expect, it } from "vitest";
import { MAX_SLOWDOWN, Pacer, RECOVERY_PER_SECOND, SLOWDOWN_FACTOR } from "../../../src/lib/rate/pacer";

const LIMIT = 10;
const MARGIN = 0.05;
const FLOOR_MS = 1000 / (LIMIT * (1 - MARGIN));
const pacer = (catchUpMs = 0) => new Pacer({ limit: LIMIT, margin: MARGIN, catchUpMs });

/** Each element minus the one before it. */
const diffs = (xs: number[]) => xs.slice(1).map((x, i) => x - (xs[i] ?? 0));

/** Grants `n` permits back to back, each exactly when due (a punctual timer); answers their times. */
function backToBack(p: Pacer, n: number, start = 0): number[] {
  const times: number[] = [];
  let now = start;
  for (let i = 0; i < n; i++) {
    now = Math.max(now, p.nextAt());
    p.grant(now, i > 0);
    times.push(now);
  }
  return times;
}

describe("pacer: the floor", () => {
  it("spaces permits 1000 / (limit × (1 − margin)) ms apart, and an idle pace grants at once", () => {
    const p = pacer();
    expect(p.ready(5000)).toBe(true);
    const times = backToBack(p, 5, 5000);
    expect(times[0]).toBe(5000);
    for (const gap of diffs(times)) expect(gap).toBeCloseTo(FLOOR_MS, 9);
    expect(p.state(times.at(-1) ?? 0)).toMatchObject({ spacingMs: FLOOR_MS, floorMs: FLOOR_MS, pausedForMs: 0 });
  });

  it("does not bank idle time: after a quiet spell the next permits are spaced again", () => {
    const p = pacer();
    backToBack(p, 3);
    const later = backToBack(p, 3, 60_000);
    expect(later[0]).toBe(60_000);
    for (const gap of diffs(later)) expect(gap).toBeCloseTo(FLOOR_MS, 9);
  });

  it("lets the next permit make up a queued permit's lateness (the timer's), up to catchUpMs; a late idle grant starts a fresh spacing", () => {
    const p = pacer(20);
    p.grant(0, false);
    p.grant(FLOOR_MS + 4, true); // 4 ms late for a caller that waited: the next is due one spacing after when this one was
    expect(p.nextAt()).toBeCloseTo(2 * FLOOR_MS, 9);
    p.grant(2 * FLOOR_MS + 30, true); // 30 ms late: 20 made up, 10 lost
    expect(p.nextAt()).toBeCloseTo(3 * FLOOR_MS + 10, 9);
    p.grant(3 * FLOOR_MS + 32, false); // nobody waited: counted from now, never closer than a spacing to the last
    expect(p.nextAt()).toBeCloseTo(4 * FLOOR_MS + 32, 9);
  });

  it("keeps ten permits at least 10 × spacing − catchUpMs apart, however the timer runs late", () => {
    const p = pacer(5);
    const times: number[] = [];
    // A timer alternately punctual and late by 0 to 40 ms, for 200 permits.
    for (let i = 0; i < 200; i++) {
      const now = p.nextAt() + (i % 2 === 0 ? 0 : (i * 7) % 41);
      p.grant(now, i > 0);
      times.push(now);
    }
    const spans = times.slice(LIMIT).map((t, i) => t - (times[i] ?? 0));
    expect(Math.min(...spans)).toBeGreaterThanOrEqual(LIMIT * FLOOR_MS - 5 - 1e-9);
    expect(Math.min(...diffs(times))).toBeGreaterThanOrEqual(FLOOR_MS - 5 - 1e-9);
  });

  it("caps the catching up at half the floor, so a late timer never yields two permits at once", () => {
    const p = new Pacer({ limit: 200, margin: 0, catchUpMs: 50 });
    p.grant(0, false);
    p.grant(5 + 4, true); // 4 ms late: 2.5 made up, so the next is due 2.5 ms less than a spacing later
    expect(p.nextAt()).toBe(9 + 5 - 2.5);
  });

  it("rejects a limit, margin or tolerance out of range", () => {
    expect(() => new Pacer({ limit: 0, margin: MARGIN, catchUpMs: 0 })).toThrow(TypeError);
    expect(() => new Pacer({ limit: 1.5, margin: MARGIN, catchUpMs: 0 })).toThrow(TypeError);
    expect(() => new Pacer({ limit: LIMIT, margin: 1, catchUpMs: 0 })).toThrow(TypeError);
    expect(() => new Pacer({ limit: LIMIT, margin: Number.NaN, catchUpMs: 0 })).toThrow(TypeError);
    expect(() => new Pacer({ limit: LIMIT, margin: MARGIN, catchUpMs: -1 })).toThrow(TypeError);
  });
});

describe("pacer: after a 429", () => {
  it("holds every permit for the pause, then spaces them SLOWDOWN_FACTOR wider", () => {
    const p = pacer();
    backToBack(p, 3);
    p.pause(2, 300);
    expect(p.ready(2299)).toBe(false);
    expect(p.nextAt()).toBe(2300);
    expect(p.state(300)).toMatchObject({ spacingMs: FLOOR_MS * SLOWDOWN_FACTOR, pausedForMs: 2000 });
    const times = backToBack(p, 2, 2300);
    expect(diffs(times)[0]).toBeCloseTo(FLOOR_MS * SLOWDOWN_FACTOR, 9);
  });

  it("slows once per pause: the other calls of the same moment answering 429 only lengthen it", () => {
    const p = pacer();
    p.pause(1, 0);
    p.pause(1, 10);
    p.pause(3, 20);
    p.pause(1, 30);
    expect(p.state(30)).toMatchObject({ spacingMs: FLOOR_MS * SLOWDOWN_FACTOR, pausedForMs: 2990 });
    p.pause(1, 3020); // a 429 after the pause ended: its call left at the slower pace
    expect(p.state(3020).spacingMs).toBeCloseTo(FLOOR_MS * SLOWDOWN_FACTOR ** 2, 9);
  });

  it("never slows past MAX_SLOWDOWN times the floor, and a pause of 0 s still holds 1 s", () => {
    const p = pacer();
    for (let i = 0; i < 10; i++) p.pause(0, i * 5000);
    expect(p.state(45_000)).toMatchObject({ spacingMs: FLOOR_MS * MAX_SLOWDOWN, pausedForMs: 1000 });
  });

  it("creeps back RECOVERY_PER_SECOND per second after the pause, busy or idle, down to the floor and no further", () => {
    const p = pacer();
    p.pause(1, 0);
    const slowed = FLOOR_MS * SLOWDOWN_FACTOR;
    expect(p.state(1000).spacingMs).toBe(slowed);
    expect(p.state(11_000).spacingMs).toBeCloseTo(slowed * (1 - RECOVERY_PER_SECOND) ** 10, 9);
    // Busy: the gaps between back-to-back permits shrink, never grow, while no 429 comes, and never below the floor.
    const gaps = diffs(backToBack(p, 200, 1000));
    expect(Math.max(...diffs(gaps))).toBeLessThanOrEqual(1e-9);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(FLOOR_MS);
    expect(gaps[0]).toBeCloseTo(slowed, 9);
    // Back at the floor once (1 − r)^s ≤ 1 / SLOWDOWN_FACTOR, about 40 s.
    expect(p.state(42_000).spacingMs).toBe(FLOOR_MS);
  });

  it("slows a relapse from where the pace has come back to, not from where it was", () => {
    const p = pacer();
    p.pause(1, 0);
    p.pause(1, 21_000); // 20 s after the pause: 1.5 × 0.99^20 of the floor, then × 1.5
    expect(p.state(21_000).spacingMs).toBeCloseTo(FLOOR_MS * SLOWDOWN_FACTOR ** 2 * (1 - RECOVERY_PER_SECOND) ** 20, 9);
  });

  it("estimates a permit's wait as the time to the next one plus a spacing per permit ahead", () => {
    const p = pacer();
    expect(p.eta(0, 0)).toBe(0);
    p.grant(0, false);
    expect(p.eta(0, 5)).toBeCloseTo(FLOOR_MS - 5, 9);
    expect(p.eta(9, 5)).toBeCloseTo(10 * FLOOR_MS - 5, 9);
    p.pause(4, 5);
    expect(p.eta(2, 5)).toBeCloseTo(4000 + 2 * FLOOR_MS * SLOWDOWN_FACTOR, 9);
  });
});
