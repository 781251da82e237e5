/**
 * @module
 * The inbound limit, per client address, with Workers' rate limiting binding (`INBOUND_LIMIT`,
 * 20 a minute, `wrangler.toml`): repeated failed authentications, and reads of `/healthz`.
 *
 * Failed authentications. Every 401 the gateway answers (a bad gateway key, webhook signature or
 * operator token) is counted for its address; once the binding says the address is over, that
 * request is answered 429, and this isolate refuses the address's further requests for a minute
 * before they reach any Durable Object: guessing keys or signatures costs the guesser, not the
 * tenants' objects. Successful calls are never counted, so a busy client is never slowed.
 *
 * The binding runs locally too (miniflare implements it, counting fixed minute windows), so the
 * tests exercise the real thing. Its counts are per Cloudflare location and approximate, which is
 * right for abuse, and why the upstream budget keeps its exact `RateGovernor` instead. Requests
 * without `CF-Connecting-IP` (which Cloudflare always sets; only in-process test calls lack it) and
 * a Worker deployed without the binding are not limited: a missing limit must not fail every call.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { GatewayApp } from "../lib/app";
import { Problem } from "../lib/problem";
import { addressKey, BlockedAddresses } from "../lib/rate/blocked-addresses";

/**
 * The binding's period, s (`simple.period` in wrangler.toml): how long an address stays refused
 * once over.
 */
export const INBOUND_LIMIT_PERIOD_SECONDS = 60;

/** The 429 for an address over its limit. */
function tooMany(seconds: number): Problem {
  return new Problem(
    "too-many-requests",
    "Too many failed attempts, or calls, from this address; try again after the Retry-After.",
    {
      headers: { "retry-after": String(seconds) },
    },
  );
}

/** The caller's address key, or null when there is none to count by. */
const callerAddress = (c: Context<GatewayApp>) =>
  addressKey(c.req.header("cf-connecting-ip") ?? "");

/**
 * Counts failed authentications per address and refuses an address that is over, in the Worker.
 * One instance per isolate: its memory of refused addresses is what spares the objects.
 *
 * @example app.use("*", limitFailedAuth())
 */
export function limitFailedAuth(blocked = new BlockedAddresses()): MiddlewareHandler<GatewayApp> {
  return async function limitFailedAuth(c, next) {
    const limiter = c.env.INBOUND_LIMIT;
    const address = callerAddress(c);
    if (!limiter || address === null) return next();
    const left = blocked.secondsLeft(address, Date.now());
    if (left > 0) throw tooMany(left);
    await next();
    if (c.res.status !== 401) return;
    if ((await limiter.limit({ key: `auth-failure:${address}` })).success) return;
    blocked.block(address, INBOUND_LIMIT_PERIOD_SECONDS * 1000, Date.now());
    // Cleared first: Hono would otherwise copy the 401's headers (its challenge) onto the 429.
    c.res = undefined;
    c.res = tooMany(INBOUND_LIMIT_PERIOD_SECONDS).toResponse(c.get("requestId"));
  };
}

/**
 * Counts one read of `/healthz` for the caller's address, and throws a 429 when the address is
 * over. `/healthz` needs no credential yet asks each environment's `RateGovernor` (the object every
 * upstream call waits on) how its token endpoint fares, so an unauthenticated flood must not reach
 * it.
 */
export async function countHealthRead(c: Context<GatewayApp>): Promise<void> {
  const limiter = c.env.INBOUND_LIMIT;
  const address = callerAddress(c);
  if (!limiter || address === null) return;
  if (!(await limiter.limit({ key: `healthz:${address}` })).success)
    throw tooMany(INBOUND_LIMIT_PERIOD_SECONDS);
}
