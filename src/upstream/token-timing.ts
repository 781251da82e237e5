/** @module When a token is renewed, and until when it is served: docs/design/rate-governor.md. */

export interface TokenRecord {
  token: string;
  issuedAt: number;
  expiresAt: number;
}

export const TOKEN_RENEW_MARGIN_MS = 5 * 60_000;
/** Never hand out a token with less left, ms: clock skew plus the longest upstream call. */
export const TOKEN_HARD_FLOOR_MS = 60_000;
/** Alarms spread over this share of the margin, so tenants issued together renew apart. */
const ALARM_JITTER_SHARE = 0.2;

const renewMargin = (t: TokenRecord) =>
  Math.min(TOKEN_RENEW_MARGIN_MS, (t.expiresAt - t.issuedAt) / 4);

/** When `t`'s renewal window opens: the last moment a copy held outside its object may serve. */
export function renewalStart(t: TokenRecord): number {
  return t.expiresAt - renewMargin(t);
}

export function renewalPlan(t: TokenRecord, now: number, lastUsedAt: number) {
  const lifetime = t.expiresAt - t.issuedAt;
  const margin = renewMargin(t);
  const floor = Math.min(TOKEN_HARD_FLOOR_MS, lifetime / 10);
  const renewAt = renewalStart(t);
  return {
    usable: t.expiresAt - now > floor,
    renewNow: now >= renewAt,
    /** Used within the last lifetime: worth renewing ahead of time. */
    inUse: now - lastUsedAt < lifetime,
    /** When the renewal alarm fires: jittered over the window's first part. */
    alarmAt: Math.max(now, renewAt + Math.random() * margin * ALARM_JITTER_SHARE),
  };
}
