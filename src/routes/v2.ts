/**
 * @module
 * `/v2/*`: any API v2 call, passed through for the tenant of the caller's gateway key.
 */
import { Hono } from "hono";
import type { GatewayApp } from "../lib/app";
import { passThrough } from "../lib/passthrough";
import type { CallTrace } from "../lib/upstream/client";
import { gatewayKey } from "../middleware/gateway-key";

export const v2Routes = new Hono<GatewayApp>().all("/*", gatewayKey(), async (c) => {
  const trace: CallTrace = { attempts: 0, waitedMs: 0, tokenRenewed: false };
  c.set("logFields", trace);
  return passThrough(c.env, c.var.caller, c.req.raw, c.get("requestId"), trace, c.var.accessCache);
});
