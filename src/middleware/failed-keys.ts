/**
 * @module
 * The inbound limit of gateway keys (`/v2/*`, `/orders/*`, `/payouts/*`, and `/mcp*` counted by
 * tenant): it follows the key that fails, never the address it came from, and never refuses a
 * request whose key is valid.
 *
 * Why no address block here. A gateway key is 256 random bits: nobody guesses one, so slowing an
 * address adds no secrecy, while tenants whose integrations share an egress address (a hosting
 * platform, a NAT) would be locked out by whoever else fails from it. So every well-shaped key is
 * checked (the isolate's `AccessCache`, else the tenant's object), and only two refusals happen
 * without the check, both sound:
 *
 * - a key this isolate saw fail in the last minute: keys are made by the gateway, at random, so a
 *   key that failed (a typo, a retired or a forged one) never becomes valid; a client hammering
 *   with an old key is refused in the Worker, and its tenant's object is spared.
 * - none other: a forger who varies the key reaches the claimed tenant's object once per key, at the
 *   cost of one hash compare there (unguessable keys make that all it can learn).
 *
 * Failures still count per address (`gateway-key:<address>` in the binding): once over, the
 * failing request is answered 429 with Retry-After instead of 401, so a misbehaving client is
 * told to slow down. The MCP endpoints count per claimed tenant instead (`mcp-key:<tenant>`):
 * hosted assistants (Claude's, ChatGPT's) call every server from a few shared addresses, so a
 * count per address would turn one user's stale key into 429s for every user of that assistant. An
 * OAuth access token there is counted the same way, by the tenant its user id names
 * (`claimedByToken`), and a token that failed is refused in the Worker for the period, like a key:
 * a token the authorization server minted at random never becomes valid after failing (expired and
 * revoked ones stay so). A failure is the gateway's own refusal of the key (a thrown
 * `unauthorized` problem), never a 401 the API answered and the pass-through handed on.
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../lib/app";
import { sha256Hex } from "../lib/crypto";
import { Problem } from "../lib/problem";
import { BlockedAddresses } from "../lib/rate/blocked-addresses";
import { claimedTenant } from "../lib/gateway-key";
import { claimedByToken } from "../lib/oauth/grants";
import { bearer } from "./admin-auth";
import {
  answerTooMany,
  countFailure,
  countTenantFailure,
  INBOUND_LIMIT_PERIOD_SECONDS,
  tooMany,
} from "./inbound-limit";

/**
 * What failures are counted by: the caller's address (`/v2`, `/orders`), or the tenant the key
 * claims (`/mcp`: hosted assistants call from a few shared addresses, so one user's bad key must
 * not turn every other user's failures into 429s; the tenant under attack is the one told to slow
 * down).
 */
export type CountFailuresBy = "address" | "tenant";

/**
 * Refuses, in the Worker, a key this isolate saw fail; counts failures per address (or per claimed
 * tenant) and answers 429 once over. One instance per isolate (mount it once for every path it
 * guards).
 *
 * @example const keys = limitFailedKeys(); app.use("/v2/*", keys).use("/orders/*", keys)
 */
export function limitFailedKeys(
  failed = new BlockedAddresses(),
  countBy: CountFailuresBy = "address",
): MiddlewareHandler<GatewayApp> {
  return async function limitFailedKeys(c, next) {
    const key = bearer(c.req.header("authorization"));
    // Filed under the key's hash: the memory holds no credential, not even a failed one. With
    // nothing remembered, no key is blocked, so the hash waits until a failure needs it: a warm
    // call's key is hashed for the access cache anyway, and one digest less is its share (issue 26).
    const id = key === null || failed.empty ? null : await sha256Hex(key);
    const left = id === null ? 0 : failed.secondsLeft(id, Date.now());
    if (left > 0) throw tooMany(left);
    await next();
    if (!(c.error instanceof Problem && c.error.type === "unauthorized")) return;
    if (key !== null)
      failed.block(id ?? (await sha256Hex(key)), INBOUND_LIMIT_PERIOD_SECONDS * 1000, Date.now());
    const over =
      countBy === "address"
        ? await countFailure(c, "gateway-key")
        : await countTenantFailure(
            c,
            key === null ? null : (claimedTenant(key)?.name ?? claimedByToken(key)),
          );
    if (over) answerTooMany(c, countBy);
  };
}
