/**
 * @module
 * The configuration at the door: the bindings' vars and secrets, parsed once (`readConfig`, cached
 * per bindings object), on the context for every handler as `c.var.config`.
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../app";
import { readConfig } from "../config";

/**
 * Puts the gateway's `Config` on the context. Never refuses a request: what is missing is a value
 * in the config (an unavailable environment, no admin token), answered 503 where it is used.
 *
 * @example app.use("*", withConfig, requestId)
 */
export const withConfig: MiddlewareHandler<GatewayApp> = async function withConfig(c, next) {
  c.set("config", readConfig(c.env));
  await next();
};
