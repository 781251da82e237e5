/**
 * @module
 * One structured log line per request: method, matched route, status, time taken, the claimed
 * tenant, and whatever fields the handler added (`c.set("logFields", …)`). At `info`, so a test run
 * at `LOG_LEVEL=warn` stays quiet; unhandled errors are logged by the error boundary on their own.
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../lib/app";
import { log } from "../lib/log";

/** Logs each request once it is answered. */
export const requestLog: MiddlewareHandler<GatewayApp> = async function requestLog(c, next) {
  const started = Date.now();
  await next();
  log.info("request", {
    requestId: c.get("requestId"),
    method: c.req.method,
    route: c.req.routePath,
    status: c.res.status,
    ms: Date.now() - started,
    tenant: c.get("caller")?.tenant ?? c.get("mcpAuth")?.holder.tenant ?? null,
    ...c.get("logFields"),
  });
};
