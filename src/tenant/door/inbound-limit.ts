/**
 * @module
 * The inbound limit, with Workers' rate limiting binding (`INBOUND_LIMIT`, 20 a minute per key,
 * `wrangler.toml`). Invariant: a limit refuses a request only by what its caller proved (its
 * address, or the credential it presented), never by a name it claims, so no stranger can refuse
 * someone else. Each credential gets the count that fits who can be refused by it
 * (docs/security.md has the table): the operator's token and the onboarding state by address
 * (`limitOperator`, `limitCallbackStates`), gateway keys at `/v2` by address after the check
 * (`failed-keys.ts`), MCP credentials by their own hash (`mcp-key.ts`), the approval page by the
 * person's address, webhook signatures not at all (`webhook-precheck.ts`).
 *
 * miniflare implements the binding (fixed minute windows), so the tests exercise the real thing.
 * Requests without `CF-Connecting-IP` (only in-process test calls lack it) and a Worker deployed
 * without the binding are not limited: a missing limit must not fail every call.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { GatewayApp } from "../../kernel/app";
import { Problem } from "../../kernel/problem";
import { addressKey, BlockedAddresses } from "../../upstream/rate/blocked-addresses";

/**
 * The binding's period, s (`simple.period` in wrangler.toml): how long an address stays refused
 * once over.
 */
export const INBOUND_LIMIT_PERIOD_SECONDS = 60;

/** What a failure is counted as: each its own count per address in the binding. */
export type FailureKind = "operator" | "onboarding-state" | "gateway-key" | "approval-key";

/** Who a 429 counted: the caller's address, or the one credential that kept failing. */
export type CountedBy = "address" | "credential";

/** The 429 for a caller over its limit, with any headers the refused answer must keep. */
export function tooMany(
  seconds: number,
  by: CountedBy = "address",
  headers: Record<string, string> = {},
): Problem {
  return new Problem(
    "too-many-requests",
    by === "address"
      ? "Too many failed attempts, or calls, from this address; try again after the Retry-After."
      : "This credential failed too often; refresh the access token or check the key, and try again after the Retry-After.",
    { headers: { ...headers, "retry-after": String(seconds) } },
  );
}

/** The caller's address key, or null when there is none to count by. */
export const callerAddress = (c: Context<GatewayApp>) =>
  addressKey(c.req.header("cf-connecting-ip") ?? "");

/**
 * Counts one failure of `kind` for the caller's address in the binding; true when the address is
 * now over its limit. False, counting nothing, without an address or a binding.
 */
export async function countFailure(c: Context<GatewayApp>, kind: FailureKind): Promise<boolean> {
  const limiter = c.env.INBOUND_LIMIT;
  const address = callerAddress(c);
  if (!limiter || address === null) return false;
  return !(await limiter.limit({ key: `${kind}:${address}` })).success;
}

/**
 * Counts one failure of the MCP credential whose SHA-256 is `hash` (`mcp-credential:<hash>`: never
 * the tenant it names nor the address it came from, so nobody else's failures can refuse it); true
 * when that credential is now over the limit.
 */
export async function countCredentialFailure(
  c: Context<GatewayApp>,
  hash: string,
): Promise<boolean> {
  const limiter = c.env.INBOUND_LIMIT;
  if (!limiter) return false;
  return !(await limiter.limit({ key: `mcp-credential:${hash}` })).success;
}

/** Replaces the answer with the 429 (cleared first: Hono would copy a 401's challenge onto it). */
export function answerTooMany(c: Context<GatewayApp>): void {
  c.res = undefined;
  c.res = tooMany(INBOUND_LIMIT_PERIOD_SECONDS).toResponse(c.get("requestId"));
}

/**
 * Blocks an address once its failures of `kind` are over the limit, and refuses a blocked address
 * in the Worker before the route runs. `failed` says which answers are failures. One instance per
 * isolate (mount it once for every path it guards): its memory of blocked addresses is what
 * spares the objects behind the route.
 */
function limitByAddress(
  kind: FailureKind,
  failed: (status: number) => boolean,
  blocked: BlockedAddresses,
): MiddlewareHandler<GatewayApp> {
  return async function limitByAddress(c, next) {
    const address = callerAddress(c);
    if (address === null) return next();
    const left = blocked.secondsLeft(address, Date.now());
    if (left > 0) throw tooMany(left);
    await next();
    if (!failed(c.res.status) || !(await countFailure(c, kind))) return;
    blocked.block(address, INBOUND_LIMIT_PERIOD_SECONDS * 1000, Date.now());
    answerTooMany(c);
  };
}

/**
 * The operator's routes (`/admin/*`, `/console/*`): a wrong token (401), a body over the
 * pre-authentication cap (413, `capBody`) or of a media type the route does not take (415) counts;
 * a blocked address is refused, right token or not.
 *
 * @example const operator = limitOperator(); app.use("/admin/*", operator).use("/console/*",
 * operator)
 */
export function limitOperator(blocked = new BlockedAddresses()): MiddlewareHandler<GatewayApp> {
  return limitByAddress("operator", (s) => s === 401 || s === 413 || s === 415, blocked);
}

/**
 * `/onboarding/callback`: a malformed (400), unknown (400), used (409) or expired (410) state
 * counts; a blocked address is refused before the `Directory` is asked.
 *
 * @example app.use("/onboarding/callback", limitCallbackStates())
 */
export function limitCallbackStates(
  blocked = new BlockedAddresses(),
): MiddlewareHandler<GatewayApp> {
  return limitByAddress("onboarding-state", (s) => s === 400 || s === 409 || s === 410, blocked);
}

/**
 * Counts one approval page (`GET /oauth/authorize`, and the operator's) for the caller's address,
 * and throws a 429 when the address is over. Each page stores a consent transaction (`OAUTH_KV`, 10
 * minutes) that anyone with a client id can make; a person opens the page from their own browser,
 * not from an assistant's shared address, so an address is the right thing to count here.
 */
export async function countApprovalPage(c: {
  env: GatewayApp["Bindings"];
  req: { header(name: string): string | undefined };
}): Promise<void> {
  const limiter = c.env.INBOUND_LIMIT;
  const address = addressKey(c.req.header("cf-connecting-ip") ?? "");
  if (!limiter || address === null) return;
  if (!(await limiter.limit({ key: `oauth-page:${address}` })).success)
    throw tooMany(INBOUND_LIMIT_PERIOD_SECONDS);
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
