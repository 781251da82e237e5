/**
 * @module
 * The inbound limit of gateway keys (`/v2/*`, `/orders/*`, `/events*`, `/payouts/*`). Invariant:
 * a request whose key is valid is never refused. Gateway keys are 256 random bits, so blocking an
 * address adds no secrecy and would refuse tenants whose integrations share its egress; every
 * well-shaped key is checked (the isolate's `AccessCache`, else the tenant's object). The only
 * refusal without the check is a key this isolate saw fail in the last minute: keys are made at
 * random, so a failed one never becomes valid, and its tenant's object is spared the repeats.
 * Failures also count per address (`gateway-key:<address>`); once over, the failing request is
 * answered 429 with Retry-After instead of 401. A failure is the gateway's own refusal of the key
 * (an `unauthorized` problem), never a 401 the API answered and the pass-through handed on. The MCP
 * endpoints keep their own memory, per credential (`mcp-key.ts`).
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../../kernel/app";
import { sha256Hex } from "../../kernel/crypto";
import { Problem } from "../../kernel/problem";
import { BlockedAddresses } from "../../upstream/rate/blocked-addresses";
import { bearer } from "./admin-auth";
import {
  answerTooMany,
  countFailure,
  INBOUND_LIMIT_PERIOD_SECONDS,
  tooMany,
} from "./inbound-limit";

/**
 * Refuses, in the Worker, a key this isolate saw fail; counts failures per address and answers 429
 * once over. One instance per isolate (mount it once for every path it guards).
 *
 * @example const keys = limitFailedKeys(); app.use("/v2/*", keys).use("/orders/*", keys)
 */
export function limitFailedKeys(failed = new BlockedAddresses()): MiddlewareHandler<GatewayApp> {
  return async function limitFailedKeys(c, next) {
    const key = bearer(c.req.header("authorization"));
    // Filed under the key's hash: the memory holds no credential, not even a failed one. With
    // nothing remembered no key is blocked, so the hash waits until a failure needs it.
    const id = key === null || failed.empty ? null : await sha256Hex(key);
    const left = id === null ? 0 : failed.secondsLeft(id, Date.now());
    if (left > 0) throw tooMany(left);
    await next();
    if (!(c.error instanceof Problem && c.error.type === "unauthorized")) return;
    if (key !== null)
      failed.block(id ?? (await sha256Hex(key)), INBOUND_LIMIT_PERIOD_SECONDS * 1000, Date.now());
    if (await countFailure(c, "gateway-key")) answerTooMany(c);
  };
}
