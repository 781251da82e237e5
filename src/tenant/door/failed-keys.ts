/**
 * @module
 * The inbound limit of gateway keys. Invariant: a request whose key is valid is never refused. The
 * only refusal without the check is a key this isolate saw fail in the last minute (a failed key
 * never becomes valid); failures per address turn the failing 401 into a 429. Why not block by
 * address: docs/design/faces.md.
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
 * Refuses a key this isolate saw fail; answers 429 once an address is over. One per isolate.
 * @example const keys = limitFailedKeys(); app.use("/v2/*", keys).use("/orders/*", keys)
 */
export function limitFailedKeys(failed = new BlockedAddresses()): MiddlewareHandler<GatewayApp> {
  return async function limitFailedKeys(c, next) {
    const key = bearer(c.req.header("authorization"));
    // Filed under the key's hash: the memory holds no credential, not even a failed one.
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
