/**
 * @module
 * The two credentials ledgergate takes: the operator's `ADMIN_TOKEN`, and a tenant's gateway key
 * (checked by the tenant's own object, see `durable/tenant.ts`).
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "./app";
import { timingSafeEqual } from "./crypto";
import { Problem } from "./problem";

/** The bearer credential of a request, or null. */
export function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m?.[1] ?? null;
}

/** Lets a request through only with `Authorization: Bearer <ADMIN_TOKEN>`. */
export const requireAdmin: MiddlewareHandler<GatewayApp> = async function requireAdmin(c, next) {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw new Problem("unavailable", "The admin API is disabled: ADMIN_TOKEN is not configured.");
  const given = bearer(c.req.header("authorization"));
  if (!given || !timingSafeEqual(given, expected)) {
    throw new Problem("unauthorized", "Send the operator's token as Authorization: Bearer <ADMIN_TOKEN>.", { headers: { "www-authenticate": "Bearer" } });
  }
  await next();
};
