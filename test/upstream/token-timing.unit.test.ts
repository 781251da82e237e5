import { afterEach, describe, expect, it, vi } from "vitest";
import {
  renewalPlan,
  TOKEN_HARD_FLOOR_MS,
  TOKEN_RENEW_MARGIN_MS,
  type TokenRecord,
} from "../../src/upstream/token-timing";

const MIN = 60_000;
/** A token issued at `issuedAt` that lives `lifetimeMs`. */
const token = (lifetimeMs: number, issuedAt = 1_700_000_000_000): TokenRecord => ({
  token: "t",
  issuedAt,
  expiresAt: issuedAt + lifetimeMs,
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("token-timing: renewalPlan", () => {
  it("renews the API's 20-minute token from 5 minutes before expiry, not a millisecond earlier", () => {
    const t = token(20 * MIN);
    expect(TOKEN_RENEW_MARGIN_MS).toBe(5 * MIN);
    expect(renewalPlan(t, t.expiresAt - 5 * MIN - 1, t.issuedAt).renewNow).toBe(false);
    expect(renewalPlan(t, t.expiresAt - 5 * MIN, t.issuedAt).renewNow).toBe(true);
    expect(renewalPlan(t, t.issuedAt, t.issuedAt).renewNow).toBe(false);
  });

  it("never hands out a 20-minute token in its last 60 seconds", () => {
    const t = token(20 * MIN);
    expect(TOKEN_HARD_FLOOR_MS).toBe(60_000);
    expect(renewalPlan(t, t.expiresAt - 60_001, t.issuedAt).usable).toBe(true);
    expect(renewalPlan(t, t.expiresAt - 60_000, t.issuedAt).usable).toBe(false);
    expect(renewalPlan(t, t.expiresAt + 1, t.issuedAt).usable).toBe(false);
  });

  it("caps margin and floor for long lifetimes: a 24-hour token still renews 5 minutes early and stops at 60 s", () => {
    const t = token(24 * 60 * MIN);
    expect(renewalPlan(t, t.expiresAt - 5 * MIN - 1, t.issuedAt).renewNow).toBe(false);
    expect(renewalPlan(t, t.expiresAt - 5 * MIN, t.issuedAt).renewNow).toBe(true);
    expect(renewalPlan(t, t.expiresAt - 60_001, t.issuedAt).usable).toBe(true);
    expect(renewalPlan(t, t.expiresAt - 60_000, t.issuedAt).usable).toBe(false);
  });

  it("scales short lifetimes: an 8-second token renews in its last quarter (2 s) and stops in its last tenth (0.8 s)", () => {
    const t = token(8_000);
    expect(renewalPlan(t, t.expiresAt - 2_001, t.issuedAt).renewNow).toBe(false);
    expect(renewalPlan(t, t.expiresAt - 2_000, t.issuedAt).renewNow).toBe(true);
    expect(renewalPlan(t, t.expiresAt - 801, t.issuedAt).usable).toBe(true);
    expect(renewalPlan(t, t.expiresAt - 800, t.issuedAt).usable).toBe(false);
  });

  it("calls a tenant in use when it was used within one lifetime", () => {
    const t = token(20 * MIN);
    const now = t.issuedAt + 16 * MIN;
    expect(renewalPlan(t, now, now).inUse).toBe(true);
    expect(renewalPlan(t, now, now - 20 * MIN + 1).inUse).toBe(true);
    expect(renewalPlan(t, now, now - 20 * MIN).inUse).toBe(false);
    expect(renewalPlan(t, now, 0).inUse).toBe(false);
  });

  it("sets the alarm inside the first fifth of the renewal window (jitter), at both ends of the random range", () => {
    const t = token(20 * MIN);
    const renewAt = t.expiresAt - 5 * MIN;
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(renewalPlan(t, t.issuedAt, t.issuedAt).alarmAt).toBe(renewAt);
    vi.spyOn(Math, "random").mockReturnValue(0.999_999);
    const late = renewalPlan(t, t.issuedAt, t.issuedAt).alarmAt;
    expect(late).toBeGreaterThan(renewAt + 59_000);
    expect(late).toBeLessThan(renewAt + MIN);
  });

  it("spreads alarms of tokens issued together over the jitter band", () => {
    const t = token(20 * MIN);
    const renewAt = t.expiresAt - 5 * MIN;
    const alarms = Array.from(
      { length: 200 },
      () => renewalPlan(t, t.issuedAt, t.issuedAt).alarmAt,
    );
    for (const a of alarms) {
      expect(a).toBeGreaterThanOrEqual(renewAt);
      expect(a).toBeLessThan(renewAt + MIN);
    }
    expect(new Set(alarms).size).toBeGreaterThan(100);
  });

  it("never sets the alarm in the past: inside the window it is due now", () => {
    const t = token(20 * MIN);
    const now = t.expiresAt - 2 * MIN;
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    expect(renewalPlan(t, now, now).alarmAt).toBe(now);
  });
});
