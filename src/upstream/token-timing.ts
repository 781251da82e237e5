/**
 * @module
 * When a token is renewed, and until when it is handed out. For the API's 20-minute token: renewal
 * starts 5 minutes early (the most common margin among mature clients) and a token in its last
 * 60 seconds is never handed out, since a caller could still be sending it when it expires.
 * Short lifetimes (tests) scale both down to a quarter and a tenth of the lifetime.
 */

/** A token with the times that matter, in ms since the epoch. */
export interface TokenRecord {
  token: string;
  issuedAt: number;
  expiresAt: number;
}

/** Renew this long before expiry, at most, ms. */
export const TOKEN_RENEW_MARGIN_MS = 5 * 60_000;
/**
 * Never hand out a token with less than this left, at most, ms (clock skew plus the longest
 * upstream call).
 */
export const TOKEN_HARD_FLOOR_MS = 60_000;
/**
 * Alarms are spread over this share of the renewal margin, so tenants issued together do not renew
 * in the same second.
 */
const ALARM_JITTER_SHARE = 0.2;

/** The renewal margin of `t`, ms: `TOKEN_RENEW_MARGIN_MS`, or a quarter of a shorter lifetime. */
const renewMargin = (t: TokenRecord) =>
  Math.min(TOKEN_RENEW_MARGIN_MS, (t.expiresAt - t.issuedAt) / 4);

/**
 * When `t`'s renewal window opens (epoch ms): the last moment a copy of it held outside the
 * tenant's object (`upstream/access-cache.ts`) may be used, so that a renewed token reaches
 * every caller before the old one nears its end.
 */
export function renewalStart(t: TokenRecord): number {
  return t.expiresAt - renewMargin(t);
}

/** What to do with `t` at `now`, for a tenant last used at `lastUsedAt`. */
export function renewalPlan(t: TokenRecord, now: number, lastUsedAt: number) {
  const lifetime = t.expiresAt - t.issuedAt;
  const margin = renewMargin(t);
  const floor = Math.min(TOKEN_HARD_FLOOR_MS, lifetime / 10);
  const renewAt = renewalStart(t);
  return {
    /** Still safe to hand out. */
    usable: t.expiresAt - now > floor,
    /** Inside the renewal window. */
    renewNow: now >= renewAt,
    /** Used within the last lifetime: worth renewing ahead of time. */
    inUse: now - lastUsedAt < lifetime,
    /** When the renewal alarm should fire: in the first part of the renewal window. */
    alarmAt: Math.max(now, renewAt + Math.random() * margin * ALARM_JITTER_SHARE),
  };
}
