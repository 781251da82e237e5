/**
 * @module
 * `/v2/*`: any API v2 call, passed through for the tenant of the caller's gateway key, shaped as
 * its headers ask (`lib/shaping/`). The key is authenticated before the path, the body or anything
 * else of the request is read (`authenticatedKey`): a forged key gets its 401 whatever it sent.
 */
import { Hono } from "hono";
import type { GatewayApp } from "../lib/app";
import { readV2Request } from "../lib/passthrough";
import { shapedV2 } from "../lib/shaping/v2";
import type { CallTrace } from "../lib/upstream/client";
import { authenticatedKey, gatewayKey } from "../middleware/gateway-key";

export const v2Routes = new Hono<GatewayApp>().all(
  "/*",
  gatewayKey(),
  authenticatedKey(),
  async (c) => {
    const trace: CallTrace = { attempts: 0, waitedMs: 0, tokenRenewed: false };
    c.set("logFields", trace);
    return shapedV2(
      await readV2Request(c.env, c.var.caller, c.req.raw, c.get("requestId"), c.var.accessCache),
      trace,
    );
  },
);
