/**
 * @module
 * `POST /webhooks/{source}/{client}/{environment}` (declared in `orders/webhook-contract.ts`): the
 * raw bytes go to the tenant's object, which verifies, records and starts the run; no API call is
 * made while the shop waits. WooCommerce's unsigned ping is answered here, alike for every address.
 */
import { ADAPTERS } from "./adapters/adapters";
import { readDelivery } from "./delivery";
import { unwrap } from "../kernel/outcome";
import { tenantName, tenantStub } from "../kernel/stubs";
import { gatewayRouter } from "../kernel/routes/contract-kit";
import { receiveWebhook, type WebhookAnswer } from "./webhook-contract";

export const webhookRoutes = gatewayRouter().openapi(receiveWebhook, async (c) => {
  const { source, client, environment } = c.req.valid("param");
  const { headers, body } = await readDelivery(c.req.raw);
  if (ADAPTERS[source].isPing?.({ headers: new Headers(headers), body }))
    return c.json(
      {
        intake: "ping",
        detail: "Ping answered; nothing was processed.",
        run: null,
      } satisfies WebhookAnswer,
      200,
    );
  const tenant = tenantName(environment, client);
  c.set("logFields", { tenant, source });
  const answer = unwrap(await tenantStub(c.env, tenant).receiveWebhook(source, headers, body));
  c.set("logFields", {
    tenant,
    source,
    intake: answer.intake,
    orderId: answer.run?.orderId ?? null,
    state: answer.run?.state ?? null,
  });
  return c.json(
    { intake: answer.intake, detail: answer.detail, run: answer.run } satisfies WebhookAnswer,
    answer.status,
  );
});
