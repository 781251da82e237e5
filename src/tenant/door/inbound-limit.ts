/**
 * @module
 * The inbound limit, on Workers' rate limiting binding (`INBOUND_LIMIT`, 20 a minute per key).
 * Invariant: a limit refuses only by what its caller proved (its address, or the credential it
 * presented), never by a name it claims (table: docs/security.md). No address or no binding: not
 * limited, since a missing limit must not fail every call. See docs/design/faces.md.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { GatewayApp } from "../../kernel/app";
import { Problem } from "../../kernel/problem";
import { addressKey, BlockedAddresses } from "../../upstream/rate/blocked-addresses";

/** The binding's period, s (`simple.period` in wrangler.toml): how long a refusal lasts. */
export const INBOUND_LIMIT_PERIOD_SECONDS = 60;

export type FailureKind = "operator" | "onboarding-state" | "gateway-key" | "approval-key";

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

export const callerAddress = (c: Context<GatewayApp>) =>
  addressKey(c.req.header("cf-connecting-ip") ?? "");

/** Counts one failure of `kind` for the caller's address; true when it is now over the limit. */
export async function countFailure(c: Context<GatewayApp>, kind: FailureKind): Promise<boolean> {
  const limiter = c.env.INBOUND_LIMIT;
  const address = callerAddress(c);
  if (!limiter || address === null) return false;
  return !(await limiter.limit({ key: `${kind}:${address}` })).success;
}

/** Counts one failure of the MCP credential whose SHA-256 is `hash` (never its tenant, address). */
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
 * Blocks an address once its failures of `kind` are over the limit, refusing it before the route
 * runs. One instance per isolate: its memory spares the objects behind the route.
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
 * The operator's routes: a 401, 413 or 415 counts; a blocked address is refused, right token too.
 * @example const op = limitOperator(); app.use("/admin/*", op).use("/console/*", op)
 */
export function limitOperator(blocked = new BlockedAddresses()): MiddlewareHandler<GatewayApp> {
  return limitByAddress("operator", (s) => s === 401 || s === 413 || s === 415, blocked);
}

/**
 * `/onboarding/callback`: a bad, used or expired state counts (400, 409, 410).
 * @example app.use("/onboarding/callback", limitCallbackStates())
 */
export function limitCallbackStates(
  blocked = new BlockedAddresses(),
): MiddlewareHandler<GatewayApp> {
  return limitByAddress("onboarding-state", (s) => s === 400 || s === 409 || s === 410, blocked);
}

/**
 * Counts one approval page for the caller's address, or throws a 429: each page stores a consent
 * record, and a person opens it from their own browser, not an assistant's shared address.
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
 * Counts one `/healthz` read for the caller's address, or throws a 429: it asks each
 * `RateGovernor`, which an unauthenticated flood must not reach.
 */
export async function countHealthRead(c: Context<GatewayApp>): Promise<void> {
  const limiter = c.env.INBOUND_LIMIT;
  const address = callerAddress(c);
  if (!limiter || address === null) return;
  if (!(await limiter.limit({ key: `healthz:${address}` })).success)
    throw tooMany(INBOUND_LIMIT_PERIOD_SECONDS);
}
