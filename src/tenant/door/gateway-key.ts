/**
 * @module
 * `gatewayKey()` reads a caller's gateway key once (a malformed one is refused in the Worker; a
 * well-shaped one names the tenant whose object authenticates it), and `authenticatedKey()` has it
 * authenticated before the route reads anything else. See docs/design/faces.md.
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
 * @example new Hono<GatewayApp>().use("*", gatewayKey())
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

/** `call` on the caller's face of its tenant's object, where the key is checked once. */
export const asCaller = <T>(c: Context<GatewayApp>, call: (face: KeyHolderStub) => T) =>
  asKeyHolder(c.env, c.var.caller, call);

/**
 * Authenticates `c.var.caller`'s key before the body is read, so a forged key gets its counted 401,
 * never the body's 400; the answer stays cached for the call that follows.
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
