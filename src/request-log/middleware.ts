/**
 * @module
 * One structured log line per request: method, matched route, status, time taken, the claimed
 * tenant, and whatever fields the handler added (`c.set("logFields", …)`). At `info`, so a test run
 * at `LOG_LEVEL=warn` stays quiet; unhandled errors are logged by the error boundary on their own.
 *
 * The line is written just after the answer is handed over, not before: its fields are taken when
 * the handler is done (so `ms` is the same), but redacting, serialising and printing them ran on
 * the answer's path, 8 % of the gateway's CPU time in a profile of warm `/v2` calls (issue 26),
 * while nothing in the answer depends on it. The request's `waitUntil` keeps the isolate up for it;
 * where there is none (a test calling the app directly), it is written at once, as before.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { GatewayApp } from "../kernel/app";
import { log } from "../kernel/log";

/** Logs each request once it is answered. */
export const requestLog: MiddlewareHandler<GatewayApp> = async function requestLog(c, next) {
  const started = Date.now();
  await next();
  // Below the threshold (the tests, a quiet deploy) nothing is gathered or scheduled.
  if (!log.writes("info")) return;
  const fields = {
    requestId: c.get("requestId"),
    method: c.req.method,
    route: c.req.routePath,
    status: c.res.status,
    ms: Date.now() - started,
    tenant: c.get("caller")?.tenant ?? c.get("mcpAuth")?.holder.tenant ?? null,
    // Spread now: the line shows the trace as it stood when the answer was made.
    ...c.get("logFields"),
  };
  const after = afterAnswer(c);
  if (after) after(scheduler.wait(0).then(() => log.info("request", fields)));
  else log.info("request", fields);
};

/** The request's `waitUntil`, or null when the app was called without an execution context. */
function afterAnswer(c: Context<GatewayApp>): ((work: Promise<unknown>) => void) | null {
  try {
    const ctx = c.executionCtx;
    return (work) => ctx.waitUntil(work);
  } catch {
    // Hono throws on `executionCtx` when the app was called with none.
    return null;
  }
}
