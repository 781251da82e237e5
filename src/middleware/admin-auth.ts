/**
 * @module
 * The operator's credential: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time.
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../lib/app";
import { timingSafeEqual } from "../lib/crypto";
import { Problem } from "../lib/problem";

/** The bearer credential of an `Authorization` header, or null. */
export function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m?.[1] ?? null;
}

/**
 * Lets a request through only with the operator's token.
 *
 * @example app.use("/admin/*", requireAdmin)
 */
export const requireAdmin: MiddlewareHandler<GatewayApp> = async function requireAdmin(c, next) {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw new Problem("unavailable", "The admin API is disabled: ADMIN_TOKEN is not configured.");
  const given = bearer(c.req.header("authorization"));
  if (!given || !timingSafeEqual(given, expected)) {
    throw new Problem("unauthorized", "Send the operator's token as Authorization: Bearer <ADMIN_TOKEN>.", { headers: { "www-authenticate": "Bearer" } });
  }
  await next();
};
