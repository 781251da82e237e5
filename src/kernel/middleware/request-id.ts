/** @module An id per request, echoed in `X-Request-Id`: the caller's own if short and safe. */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../app";

const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

export const requestId: MiddlewareHandler<GatewayApp> = async function requestId(c, next) {
  const offered = c.req.header("x-request-id");
  const id = offered && SAFE_ID.test(offered) ? offered : crypto.randomUUID();
  c.set("requestId", id);
  await next();
  c.res.headers.set("x-request-id", id);
};
