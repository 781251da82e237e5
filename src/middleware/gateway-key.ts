/**
 * @module
 * `gatewayKey()`: reads a caller's gateway key once, for every route that takes one. A key that is
 * missing or not shaped like a gateway key is refused here, in the Worker; a well-shaped key names
 * the tenant whose object then authenticates it on the call (see `durable/tenant.ts`).
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../lib/app";
import { claimedTenant } from "../lib/gateway-key";
import { Problem } from "../lib/problem";
import { bearer } from "./admin-auth";

/**
 * Sets `c.var.caller` from `Authorization: Bearer <gateway key>`, or answers 401.
 *
 * @example new Hono<GatewayApp>().use("*", gatewayKey()).get("/", (c) => c.text(c.var.caller.tenant))
 */
export function gatewayKey(): MiddlewareHandler<GatewayApp> {
  return async function gatewayKey(c, next) {
    const key = bearer(c.req.header("authorization"));
    const claimed = key ? claimedTenant(key) : null;
    if (!key || !claimed)
      throw new Problem(
        "unauthorized",
        "Send a gateway key as Authorization: Bearer <gateway key>.",
        { headers: { "www-authenticate": "Bearer" } },
      );
    c.set("caller", { key, tenant: claimed.name, environment: claimed.environment });
    await next();
  };
}
