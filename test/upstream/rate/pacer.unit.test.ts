/**
 * The pace of `upstream/rate/pacer.ts` on a driven clock: spacing, the floor, the nudge after a
 * first 429, the pause and slow-down after repeated ones, and creeping back. Counts and times on
 * the simulated clock only, never wall-clock time.
 */
import { describe, expect, it } from "vitest";
import {
  CALM_MS,
  ECHO_MS,
  MAX_SLOWDOWN,
  NUDGE_FACTOR,
  Pacer,
  RECOVERY_PER_SECOND,
  SLOWDOWN_FACTOR,
} from "../../../src/upstream/rate/pacer";

const LIMIT = 10;
const MARGIN = 0.05;
const FLOOR_MS = 1000 / (LIMIT * (1 - MARGIN));
const pacer = (catchUpMs = 0) => new Pacer({ limit: LIMIT, margin: MARGIN, catchUpMs });

/** Each element minus the one before it. */
const diffs = (xs: number[]) => xs.slice(1).map((x, i) => x - (xs[i] ?? 0));

/**
 * Grants `n` permits back to back, each exactly when due (a punctual timer); answers their times.
 */
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
    expect(p.state(times.at(-1) ?? 0)).toMatchObject({
      spacingMs: FLOOR_MS,
      floorMs: FLOOR_MS,
      pausedForMs: 0,
    });
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
  /** Grants one permit at `now` (or when the pace next allows one) and answers its number. */
  const sendAt = (p: Pacer, now: number) => p.grant(Math.max(now, p.nextAt()), false);

  it("takes a first 429 after a calm spell as a stall on the way: the spacing NUDGE_FACTOR wider, nothing held", () => {
    const p = pacer();
    backToBack(p, 3);
    const due = p.nextAt();
    expect(p.throttled(1, 300, 2)).toBe("nudged");
    expect(p.state(300)).toMatchObject({ spacingMs: FLOOR_MS * NUDGE_FACTOR, pausedForMs: 0 });
    // The permit already due stays due; the ones after it come at the nudged spacing (crept back
    // since 300).
    expect(p.nextAt()).toBe(due);
    const after = backToBack(p, 2, due);
    expect(after[0]).toBe(due);
    expect(diffs(after)[0]).toBeCloseTo(
      FLOOR_MS * NUDGE_FACTOR * (1 - RECOVERY_PER_SECOND) ** ((due - 300) / 1000),
      9,
    );
  });

  it("takes a 429 within CALM_MS of the last reaction, to a call granted since, as a pace too fast: every permit held for its Retry-After, the spacing SLOWDOWN_FACTOR wider", () => {
    const p = pacer();
    expect(p.throttled(1, 0, sendAt(p, 0))).toBe("nudged");
    const permit = sendAt(p, 5000);
    expect(p.throttled(2, 5000, permit)).toBe("slowed");
    const slowed = FLOOR_MS * NUDGE_FACTOR * (1 - RECOVERY_PER_SECOND) ** 5 * SLOWDOWN_FACTOR;
    expect(p.state(5000).pausedForMs).toBe(2000);
    expect(p.state(5000).spacingMs).toBeCloseTo(slowed, 9);
    expect(p.ready(6999)).toBe(false);
    expect(p.nextAt()).toBe(7000);
    const times = backToBack(p, 2, 7000);
    expect(times[0]).toBe(7000);
    expect(diffs(times)[0]).toBeCloseTo(slowed, 9);
  });

  it("takes 429s within ECHO_MS of a nudge as the same stall, even to calls granted since: nothing more changes", () => {
    const p = pacer();
    expect(p.throttled(1, 0, sendAt(p, 0))).toBe("nudged");
    expect(p.throttled(1, 200, sendAt(p, 200))).toBe("echo");
    expect(p.throttled(3, ECHO_MS - 1, sendAt(p, ECHO_MS - 1))).toBe("echo");
    expect(p.state(0)).toMatchObject({ spacingMs: FLOOR_MS * NUDGE_FACTOR, pausedForMs: 0 });
    expect(p.state(ECHO_MS - 1).pausedForMs).toBe(0);
    expect(p.throttled(1, ECHO_MS, sendAt(p, ECHO_MS))).toBe("slowed");
  });

  it("learns nothing from 429s to calls granted before the last reaction (they left at the old pace): they only lengthen a pause that is on", () => {
    const p = pacer();
    const early = [sendAt(p, 0), sendAt(p, 0), sendAt(p, 0)];
    expect(p.throttled(1, 250, early[0] ?? -1)).toBe("nudged");
    const later = sendAt(p, 300);
    // After the echo second, an early call's 429 still teaches nothing; the later call's is a
    // second 429.
    expect(p.throttled(5, 1260, early[1] ?? -1)).toBe("echo");
    expect(p.state(250)).toMatchObject({ spacingMs: FLOOR_MS * NUDGE_FACTOR, pausedForMs: 0 });
    expect(p.state(1260).pausedForMs).toBe(0);
    expect(p.throttled(1, 1300, later)).toBe("slowed");
    const spacing = p.state(1300).spacingMs;
    expect(p.throttled(3, 1310, early[2] ?? -1)).toBe("echo");
    expect(p.throttled(1, 1320, later)).toBe("echo");
    // The pause is 3 s from 1310 now, the spacing as the one reaction left it.
    expect(p.state(1320)).toMatchObject({ spacingMs: spacing, pausedForMs: 2990 });
  });

  it("takes a 429 more than CALM_MS after the last reaction as a new stall: a nudge again", () => {
    const p = pacer();
    expect(p.throttled(1, 0, sendAt(p, 0))).toBe("nudged");
    expect(p.throttled(1, CALM_MS, sendAt(p, CALM_MS))).toBe("nudged");
    expect(p.state(CALM_MS)).toMatchObject({ spacingMs: FLOOR_MS * NUDGE_FACTOR, pausedForMs: 0 });
  });

  it("never slows past MAX_SLOWDOWN times the floor, and a Retry-After of 0 s still holds 1 s", () => {
    const p = pacer();
    for (let i = 0; i < 10; i++) p.throttled(0, i * 5000, sendAt(p, i * 5000));
    expect(p.state(45_000)).toMatchObject({
      spacingMs: FLOOR_MS * MAX_SLOWDOWN,
      pausedForMs: 1000,
    });
  });

  it("creeps back RECOVERY_PER_SECOND per second after a nudge, busy or idle, down to the floor and no further", () => {
    const p = pacer();
    p.throttled(1, 0, sendAt(p, 0));
    const nudged = FLOOR_MS * NUDGE_FACTOR;
    expect(p.state(0).spacingMs).toBe(nudged);
    expect(p.state(5000).spacingMs).toBeCloseTo(nudged * (1 - RECOVERY_PER_SECOND) ** 5, 9);
    // Busy: the gaps between back-to-back permits shrink, never grow, while no 429 comes, and never
    // below the floor.
    const gaps = diffs(backToBack(p, 120, 0));
    expect(Math.max(...diffs(gaps))).toBeLessThanOrEqual(1e-9);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(FLOOR_MS - 1e-9);
    // Back at the floor once (1 − r)^s ≤ 1 / NUDGE_FACTOR, about 10 s.
    expect(p.state(9000).spacingMs).toBeGreaterThan(FLOOR_MS);
    expect(p.state(10_000).spacingMs).toBe(FLOOR_MS);
  });

  it("creeps back from the end of a pause, not from the 429", () => {
    const p = pacer();
    p.throttled(1, 0, sendAt(p, 0));
    p.throttled(4, 1000, sendAt(p, 1000));
    const slowed = p.state(1000).spacingMs;
    expect(p.state(5000).spacingMs).toBe(slowed);
    expect(p.state(15_000).spacingMs).toBeCloseTo(slowed * (1 - RECOVERY_PER_SECOND) ** 10, 9);
  });

  it("slows a relapse from where the pace has come back to, not from where it was", () => {
    const p = pacer();
    p.throttled(1, 0, sendAt(p, 0));
    p.throttled(1, 5000, sendAt(p, 5000)); // 5 s after the nudge: 1.1 × 0.99^5 of the floor, then × 1.5
    expect(p.state(5000).spacingMs).toBeCloseTo(
      FLOOR_MS * NUDGE_FACTOR * SLOWDOWN_FACTOR * (1 - RECOVERY_PER_SECOND) ** 5,
      9,
    );
  });

  it("estimates a permit's wait as the time to the next one plus a spacing per permit ahead", () => {
    const p = pacer();
    expect(p.eta(0, 0)).toBe(0);
    p.grant(0, false);
    expect(p.eta(0, 5)).toBeCloseTo(FLOOR_MS - 5, 9);
    expect(p.eta(9, 5)).toBeCloseTo(10 * FLOOR_MS - 5, 9);
    p.throttled(1, 5, 0);
    p.throttled(4, 5 + ECHO_MS, sendAt(p, 5 + ECHO_MS));
    expect(p.eta(2, 5 + ECHO_MS)).toBeCloseTo(
      4000 + 2 * FLOOR_MS * NUDGE_FACTOR * (1 - RECOVERY_PER_SECOND) * SLOWDOWN_FACTOR,
      9,
    );
  });
});
