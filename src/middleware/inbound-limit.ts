/**
 * @module
 * The inbound limit, with Workers' rate limiting binding (`INBOUND_LIMIT`, 20 a minute per key,
 * `wrangler.toml`). It follows the party who fails, never a bystander who shares its address.
 *
 * Why not one count per address for everything: shop platforms send every merchant's deliveries
 * from a few shared addresses, and tenants' integrations can share an egress address. A count of
 * every 401 per address let anyone with a free shop account lock a platform's address out (twenty
 * deliveries signed with their own secret), and with it every tenant's genuine deliveries. So each
 * credential gets the limit that fits who can be refused by it:
 *
 * - the operator's token (`/admin`, `/console`, `limitOperator`): a secret a person picks, so it
 *   can be guessed, and the block must refuse right guesses too or it would not slow guessing. It
 *   blocks the address, before the token is compared; the only party it can refuse is the operator
 *   (whose credential is at stake) at that address. Its 401s and the console's 413s count.
 * - the onboarding callback's state (`limitCallbackStates`): unknown, used or expired states count
 *   per address, and a blocked address is refused before the one `Directory` object every callback
 *   asks. The state is unguessable, so this spares the Directory rather than the state; a browser
 *   that shares a flooding address waits a minute (the state lives 30), told so by Retry-After.
 * - gateway keys (`/v2`, `/orders`): 256 random bits, never guessed, so a block adds no secrecy;
 *   a request with a valid key is never refused (`middleware/failed-keys.ts`).
 * - webhook signatures: no limit at all. A signed delivery is always verified (in its tenant's
 *   object); an unsigned one is refused in the Worker (`webhook-precheck.ts`) and costs nothing.
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

/** What a failure is counted as: each its own count per address in the binding. */
export type FailureKind = "operator" | "onboarding-state" | "gateway-key";

/** The 429 for a caller over its limit: counted by its address, or by the tenant its key names. */
export function tooMany(seconds: number, by: "address" | "tenant" = "address"): Problem {
  return new Problem(
    "too-many-requests",
    by === "address"
      ? "Too many failed attempts, or calls, from this address; try again after the Retry-After."
      : "Too many failed keys for this tenant; check the key, and try again after the Retry-After.",
    { headers: { "retry-after": String(seconds) } },
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
 * Counts one failed MCP key for the tenant it claims (`mcp-key:<tenant>`, never an address: see
 * `failed-keys.ts`); true when that tenant's failures are now over the limit. A key that claims no
 * tenant (not shaped like a gateway key) is counted under `none`: refused in the Worker anyway, it
 * costs nothing but its own 429s.
 */
export async function countTenantFailure(
  c: Context<GatewayApp>,
  tenant: string | null,
): Promise<boolean> {
  const limiter = c.env.INBOUND_LIMIT;
  if (!limiter) return false;
  return !(await limiter.limit({ key: `mcp-key:${tenant ?? "none"}` })).success;
}

/** Replaces the answer with the 429 (cleared first: Hono would copy a 401's challenge onto it). */
export function answerTooMany(c: Context<GatewayApp>, by: "address" | "tenant" = "address"): void {
  c.res = undefined;
  c.res = tooMany(INBOUND_LIMIT_PERIOD_SECONDS, by).toResponse(c.get("requestId"));
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
 * The operator's routes (`/admin/*`, `/console/*`): a wrong token (401) or a body over the
 * pre-authentication cap (413, `capBody`) counts; a blocked address is refused, right token or not.
 *
 * @example const operator = limitOperator(); app.use("/admin/*", operator).use("/console/*", operator)
 */
export function limitOperator(blocked = new BlockedAddresses()): MiddlewareHandler<GatewayApp> {
  return limitByAddress("operator", (s) => s === 401 || s === 413, blocked);
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
