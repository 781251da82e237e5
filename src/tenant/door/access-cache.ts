/**
 * @module
 * Puts the isolate's one `AccessCache` (`upstream/access-cache.ts`) on every request's context.
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../../kernel/app";
import type { AccessCache } from "../../upstream/access-cache";

/**
 * Sets `c.var.accessCache` to `cache` (created once per isolate, in `src/index.ts`).
 * @example app.use("*", withAccessCache(new AccessCache()))
 */
export function withAccessCache(cache: AccessCache): MiddlewareHandler<GatewayApp> {
  return async function withAccessCache(c, next) {
    c.set("accessCache", cache);
    await next();
  };
}
