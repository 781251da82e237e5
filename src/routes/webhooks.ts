/**
 * @module
 * `POST /webhooks/{source}/{client}/{environment}`: a shop's webhook. The raw bytes go to the
 * tenant's object, which verifies them with the tenant's secret for that source (the secret never
 * leaves it), records the order and starts its run. The answer comes as soon as the run is
 * recorded, well within Shopify's 5 s: no API call is made while the shop waits.
 */
import { Hono } from "hono";
import type { GatewayApp } from "../lib/app";
import { Environment } from "../lib/config";
import { log } from "../lib/log";
import { Source } from "../lib/orders/order";
import { orderPort } from "../lib/orders/port";
import { Problem } from "../lib/problem";
import { ClientSlug, tenantName } from "../lib/tenant";
import { tenantStub } from "../lib/tenants";
import { readCapped } from "../../shared/bytes";
import { param } from "../lib/validate";

/** Largest webhook body, bytes: a large Shopify order is tens of kB; this leaves ample room. */
export const MAX_WEBHOOK_BYTES = 2 * 1024 * 1024;

/** Headers that never reach the tenant's object: credentials of other schemes, and cookies. */
const DROPPED = new Set(["authorization", "cookie", "proxy-authorization"]);

export const webhookRoutes = new Hono<GatewayApp>().post("/:source/:client/:environment", async (c) => {
  const source = param(Source, c.req.param("source"), "webhook source");
  const client = param(ClientSlug, c.req.param("client"), "tenant");
  const environment = param(Environment, c.req.param("environment"), "environment");
  if (Number(c.req.header("content-length") ?? 0) > MAX_WEBHOOK_BYTES) throw new Problem("payload-too-large", `Webhook bodies are limited to ${MAX_WEBHOOK_BYTES} bytes.`);
  const body = c.req.raw.body ? await readCapped(c.req.raw.body, MAX_WEBHOOK_BYTES) : new Uint8Array();
  if (body === null) throw new Problem("payload-too-large", `Webhook bodies are limited to ${MAX_WEBHOOK_BYTES} bytes.`);
  const headers = [...c.req.raw.headers].filter(([k]) => !DROPPED.has(k.toLowerCase()));
  const answer = await orderPort(tenantStub(c.env, environment, client)).receiveWebhook(source, headers, body);
  const requestId = c.get("requestId");
  if (!answer.ok) {
    log.warn("webhook.refused", { requestId, tenant: tenantName(environment, client), source, status: answer.status, detail: answer.detail });
    // An unknown tenant is answered like a bad signature: without its secret nothing can be verified.
    if (answer.status === 404) throw new Problem("unauthorized", "The signature cannot be verified: no such tenant, or no webhook secret for this source.");
    throw new Problem(answer.status === 401 ? "unauthorized" : "bad-request", answer.detail);
  }
  log.info("webhook", { requestId, tenant: tenantName(environment, client), source, intake: answer.intake, orderId: answer.run?.orderId ?? null, state: answer.run?.state ?? null });
  return c.json({ intake: answer.intake, detail: answer.detail, run: answer.run }, answer.status);
});
