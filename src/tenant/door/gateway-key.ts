/**
 * @module
 * `gatewayKey()`: reads a caller's gateway key once, for every route that takes one. A key that is
 * missing or not shaped like a gateway key is refused here, in the Worker; a well-shaped key names
 * the tenant whose object then authenticates it on the call (see `tenant/tenant-object.ts`).
 * `authenticatedKey()` has that object (or the isolate's copy of its word) authenticate the key
 * before the route reads anything else of the request.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { GatewayApp } from "../../kernel/app";
import { claimedTenant } from "../key-format";
import { problemOf } from "../../kernel/outcome";
import { Problem } from "../../kernel/problem";
import { gatewayRouter } from "../../kernel/routes/contract-kit";
import { asKeyHolder, type KeyHolderStub } from "../../kernel/stubs";
import { bearer } from "./admin-auth";

/**
 * Sets `c.var.caller` from `Authorization: Bearer <gateway key>`, or answers 401.
 *
 * @example new Hono<GatewayApp>().use("*", gatewayKey()).get("/", (c) =>
 * c.text(c.var.caller.tenant))
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

/** A router whose every route takes a gateway key (`gatewayKey()`); its handlers use `asCaller`. */
export function keyedRouter() {
  const router = gatewayRouter();
  router.use("*", gatewayKey());
  return router;
}

/**
 * `call` on the caller's face of its tenant's object: the key `gatewayKey()` read is checked
 * there, once, and every method answers `unauthorized` when it does not check out.
 */
export const asCaller = <T>(c: Context<GatewayApp>, call: (face: KeyHolderStub) => T) =>
  asKeyHolder(c.env, c.var.caller, call);

/**
 * Authenticates `c.var.caller`'s key (after `gatewayKey()`), or throws its 401 (or the 5xx of a
 * tenant whose token cannot be had).
 *
 * Why first: a route that read and validated the body before the key answered a forged key with
 * the body's 400, so the forger learnt about the body (and the route's schema) and the failure was
 * never counted as one (`tenant/door/failed-keys.ts`). The check is the one every upstream call
 * makes anyway (`AccessCache.access`, then the tenant's `access`), and its answer stays in the
 * isolate's cache, so the call that follows takes no second hop.
 *
 * @example new Hono<GatewayApp>().all("/*", gatewayKey(), authenticatedKey(), handler)
 */
export function authenticatedKey(): MiddlewareHandler<GatewayApp> {
  return async function authenticatedKey(c, next) {
    const { key, tenant } = c.var.caller;
    // The request's waitUntil keeps a refresh-ahead of the key's copy alive after the answer.
    const access = await c.var.accessCache.access(
      tenant,
      key,
      () => asKeyHolder(c.env, { tenant, key }, (f) => f.access()),
      false,
      (refresh) => c.executionCtx.waitUntil(refresh),
    );
    if (!access.ok) throw problemOf(access.error);
    await next();
  };
}
