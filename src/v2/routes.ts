/**
 * @module
 * `/v2/*`: any API v2 call, for the tenant of the caller's gateway key. The key is authenticated
 * before anything of the request is read: a forged key gets its 401 whatever it sent.
 */
import { Hono } from "hono";
import type { GatewayApp } from "../kernel/app";
import { readV2Request } from "./passthrough";
import { keyTag } from "../request-log/record";
import type { CallTrace } from "../upstream/client";
import { performV2 } from "./call";
import { authenticatedKey, gatewayKey } from "../tenant/door/gateway-key";

export const v2Routes = new Hono<GatewayApp>().all(
  "/*",
  gatewayKey(),
  authenticatedKey(),
  async (c) => {
    const trace: CallTrace = { attempts: 0, waitedMs: 0, tokenRenewed: false };
    c.set("logFields", trace);
    const started = Date.now();
    const r = await readV2Request(
      c.env,
      c.var.caller,
      c.req.raw,
      c.get("requestId"),
      c.var.accessCache,
    );
    return performV2(c.executionCtx, r, keyTag(c.var.caller), trace, started);
  },
);
