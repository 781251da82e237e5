import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../app";
import { readConfig } from "../config";

/**
 * Puts the gateway's `Config` on the context as `c.var.config`. Never refuses a request: what is
 * missing is answered 503 where it is used.
 * @example app.use("*", withConfig, requestId)
 */
export const withConfig: MiddlewareHandler<GatewayApp> = async function withConfig(c, next) {
  c.set("config", readConfig(c.env));
  await next();
};
