/**
 * @module
 * `/v2/*`: any API v2 call, passed through for the tenant of the caller's gateway key, shaped as
 * its headers ask (`lib/shaping/`).
 */
import { Hono } from "hono";
import type { GatewayApp } from "../lib/app";
import { readV2Request } from "../lib/passthrough";
import { shapedV2 } from "../lib/shaping/v2";
import type { CallTrace } from "../lib/upstream/client";
import { gatewayKey } from "../middleware/gateway-key";

export const v2Routes = new Hono<GatewayApp>().all("/*", gatewayKey(), async (c) => {
  const trace: CallTrace = { attempts: 0, waitedMs: 0, tokenRenewed: false };
  c.set("logFields", trace);
  return shapedV2(
    await readV2Request(c.env, c.var.caller, c.req.raw, c.get("requestId"), c.var.accessCache),
    trace,
  );
});
