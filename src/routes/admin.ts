/**
 * @module
 * The operator API (`Authorization: Bearer <ADMIN_TOKEN>`): register, list, rotate, replace, remove.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { GatewayApp } from "../lib/app";
import { requireAdmin } from "../lib/auth";
import { Environment } from "../lib/config";
import { OrderMappingInput } from "../lib/orders/mapping";
import { Source } from "../lib/orders/order";
import { ClientSlug, tenantName } from "../lib/tenant";
import { directory, listTenants, tenantStub, unwrap } from "../lib/tenants";
import { jsonBody, param } from "../lib/validate";

/** How long a rotated gateway key keeps working, s: a day, so callers can roll out the new one. */
export const DEFAULT_KEY_GRACE_SECONDS = 86_400;

const ClientKey = z.string().min(1).max(200);
const NewTenant = z.strictObject({ client: ClientSlug, environment: Environment, clientKey: ClientKey, name: z.string().min(1).max(200).optional() });
const Rotation = z.strictObject({ graceSeconds: z.int().min(0).max(30 * 86_400).default(DEFAULT_KEY_GRACE_SECONDS) });
const Replacement = z.strictObject({ clientKey: ClientKey });
const WebhookSecret = z.strictObject({ secret: z.string().min(8).max(500) });

function target(c: { req: { param: (k: string) => string | undefined } }) {
  return { environment: param(Environment, c.req.param("environment"), "environment"), client: param(ClientSlug, c.req.param("client"), "client") };
}

export const adminRoutes = new Hono<GatewayApp>()
  .use("*", requireAdmin)
  .post("/tenants", async (c) => {
    const input = await jsonBody(c.req.raw, NewTenant);
    const { gatewayKey } = unwrap(await tenantStub(c.env, input.environment, input.client).register({ ...input, name: input.name ?? input.client }));
    await directory(c.env).add(tenantName(input.environment, input.client));
    return c.json({ tenant: tenantName(input.environment, input.client), gatewayKey }, 201);
  })
  .get("/tenants", async (c) => c.json({ tenants: await listTenants(c.env) }))
  .post("/tenants/:environment/:client/gateway-keys", async (c) => {
    const { environment, client } = target(c);
    const { graceSeconds } = await jsonBody(c.req.raw, Rotation, {});
    return c.json(unwrap(await tenantStub(c.env, environment, client).rotateGatewayKey(graceSeconds)), 201);
  })
  .put("/tenants/:environment/:client/client-key", async (c) => {
    const { environment, client } = target(c);
    const { clientKey } = await jsonBody(c.req.raw, Replacement);
    unwrap(await tenantStub(c.env, environment, client).replaceClientKey(clientKey));
    return c.body(null, 204);
  })
  .put("/tenants/:environment/:client/webhooks/:source", async (c) => {
    const { environment, client } = target(c);
    const source = param(Source, c.req.param("source"), "webhook source");
    const { secret } = await jsonBody(c.req.raw, WebhookSecret);
    unwrap(await tenantStub(c.env, environment, client).setWebhookSecret(source, secret));
    return c.body(null, 204);
  })
  .put("/tenants/:environment/:client/order-mapping", async (c) => {
    const { environment, client } = target(c);
    const input = await jsonBody(c.req.raw, OrderMappingInput);
    return c.json(unwrap(await tenantStub(c.env, environment, client).setOrderMapping(input)));
  })
  .get("/tenants/:environment/:client/order-mapping", async (c) => {
    const { environment, client } = target(c);
    return c.json(unwrap(await tenantStub(c.env, environment, client).orderMapping()));
  })
  .delete("/tenants/:environment/:client", async (c) => {
    const { environment, client } = target(c);
    unwrap(await tenantStub(c.env, environment, client).remove());
    await directory(c.env).remove(tenantName(environment, client));
    return c.body(null, 204);
  });
