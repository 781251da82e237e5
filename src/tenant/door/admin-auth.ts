/**
 * @module
 * The operator's credential: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time, and
 * refused altogether in a deploy that kept the committed development token or sealing key.
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../../kernel/app";
import type { Config } from "../../kernel/config";
import { timingSafeEqual } from "../../kernel/crypto";
import { Problem } from "../../kernel/problem";

/** The bearer credential of an `Authorization` header, or null. */
export function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m?.[1] ?? null;
}

/**
 * The operator's token, or a 503 where none is configured or a committed development secret is in
 * use: with a public token, a right answer proves nothing about the caller.
 */
export function usableAdminToken(config: Config, what: "admin API" | "console"): string {
  const token = config.adminToken;
  if (!token)
    throw new Problem("unavailable", `The ${what} is disabled: ADMIN_TOKEN is not configured.`);
  const committed = config.committedSecretsInUse;
  if (committed.length > 0) {
    throw new Problem(
      "unavailable",
      `The ${what} is disabled: ${committed.join(" and ")} still ${committed.length > 1 ? "hold" : "holds"} the development value committed in wrangler.toml, which anyone can read. Set your own with \`wrangler secret put\` (see README, "Deploy").`,
    );
  }
  return token;
}

/**
 * Lets a request through only with the operator's token.
 * @example app.use("/admin/*", requireAdmin)
 */
export const requireAdmin: MiddlewareHandler<GatewayApp> = async function requireAdmin(c, next) {
  const expected = usableAdminToken(c.var.config, "admin API");
  const given = bearer(c.req.header("authorization"));
  if (!given || !timingSafeEqual(given, expected)) {
    throw new Problem(
      "unauthorized",
      "Send the operator's token as Authorization: Bearer <ADMIN_TOKEN>.",
      { headers: { "www-authenticate": "Bearer" } },
    );
  }
  await next();
};
