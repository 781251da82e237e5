/**
 * @module
 * `POST /webhooks/{source}/{client}/{environment}`: a shop's webhook. The raw bytes go to the
 * tenant's object, which verifies them with the tenant's secret for that source (the secret never
 * leaves it), records the order and starts its run. The answer comes as soon as the run is
 * recorded, well within Shopify's 5 s: no API call is made while the shop waits.
 *
 * WooCommerce's activation ping is unsigned and carries nothing: it is answered here, the same for
 * every address, so a ping cannot tell which tenants exist (and reaches no tenant's object).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { GatewayApp } from "../lib/app";
import { Environment } from "../lib/config";
import { ADAPTERS } from "../lib/orders/adapters";
import { readDelivery } from "../lib/orders/delivery";
import { Source } from "../lib/orders/order";
import { unwrap } from "../lib/outcome";
import { ClientSlug, tenantName, tenantStub } from "../lib/stubs";
import { validParams } from "../middleware/validate";

const WebhookRoute = z.object({ source: Source, client: ClientSlug, environment: Environment });

export const webhookRoutes = new Hono<GatewayApp>().post("/:source/:client/:environment", validParams(WebhookRoute), async (c) => {
  const { source, client, environment } = c.req.valid("param");
  const { headers, body } = await readDelivery(c.req.raw);
  if (ADAPTERS[source].isPing?.({ headers: new Headers(headers), body })) return c.json({ intake: "ping", detail: "Ping answered; nothing was processed.", run: null }, 200);
  const tenant = tenantName(environment, client);
  c.set("logFields", { tenant, source });
  const answer = unwrap(await tenantStub(c.env, tenant).receiveWebhook(source, headers, body));
  c.set("logFields", { tenant, source, intake: answer.intake, orderId: answer.run?.orderId ?? null, state: answer.run?.state ?? null });
  return c.json({ intake: answer.intake, detail: answer.detail, run: answer.run }, answer.status);
});
