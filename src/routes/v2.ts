/**
 * @module
 * `/v2/*`: any API v2 call, passed through for the tenant of the caller's gateway key.
 */
import { Hono } from "hono";
import type { GatewayApp } from "../lib/app";
import { bearer } from "../lib/auth";
import { environmentConfig } from "../lib/config";
import { log } from "../lib/log";
import { deadlineOf, downstreamResponse, upstreamBody, upstreamHeaders } from "../lib/passthrough";
import { Problem } from "../lib/problem";
import { claimedTenant } from "../lib/tenant";
import { callUpstream, type CallTrace } from "../lib/upstream/client";
import { v2Path } from "../lib/v2-path";

export const v2Routes = new Hono<GatewayApp>().all("/*", async (c) => {
  const started = Date.now();
  const key = bearer(c.req.header("authorization"));
  const tenant = key ? claimedTenant(key) : null;
  if (!key || !tenant) throw new Problem("unauthorized", "Send a gateway key as Authorization: Bearer <gateway key>.", { headers: { "www-authenticate": "Bearer" } });
  const url = new URL(c.req.url);
  const path = v2Path(url.pathname);
  if (!path.ok) throw new Problem("bad-request", path.error);
  const config = environmentConfig(c.env, tenant.environment);
  if (!config.ok) throw new Problem("unavailable", config.detail);
  const deadline = deadlineOf(c.req.header("x-deadline-ms"), started);
  const method = c.req.method.toUpperCase();
  const body = await upstreamBody(c.req.raw, method, path.value);
  const trace: CallTrace = { attempts: 0, waitedMs: 0, tokenRenewed: false };
  const requestId = c.get("requestId");
  try {
    const res = await callUpstream(
      { env: c.env, environment: tenant.environment, config: config.config, tenant: tenant.name, gatewayKey: key },
      { method, path: path.value, search: url.search, headers: upstreamHeaders(c.req.raw.headers, requestId), body, deadline },
      trace,
    );
    log.info("v2", { requestId, tenant: tenant.name, method, route: path.value, status: res.status, ...trace, ms: Date.now() - started });
    return downstreamResponse(res, config.config.apiBaseUrl, url.origin, requestId);
  } catch (e) {
    log.warn("v2", { requestId, tenant: tenant.name, method, route: path.value, problem: e instanceof Problem ? e.type : "internal", ...trace, ms: Date.now() - started });
    throw e;
  }
});
