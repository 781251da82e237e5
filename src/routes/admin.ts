/**
 * @module
 * The operator API (`Authorization: Bearer <ADMIN_TOKEN>`): register, list, rotate, replace, remove,
 * webhook secrets (set outright, or rotated with an overlap like gateway keys) and the order mapping.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { GatewayApp } from "../lib/app";
import { Environment } from "../lib/config";
import { OrderMappingInput } from "../lib/orders/mapping";
import { Source } from "../lib/orders/order";
import { ShopDomain } from "../lib/orders/shopify";
import { unwrap } from "../lib/outcome";
import { ClientSlug, tenantName, tenantStub } from "../lib/stubs";
import { listTenants, registerTenant, removeTenant } from "../lib/tenant-admin";
import { requireAdmin } from "../middleware/admin-auth";
import { validJson, validParams } from "../middleware/validate";

/** How long a rotated gateway key keeps working, s: a day, so callers can roll out the new one. */
export const DEFAULT_KEY_GRACE_SECONDS = 86_400;

const ClientKey = z.string().min(1).max(200);
const NewTenant = z.strictObject({ client: ClientSlug, environment: Environment, clientKey: ClientKey, name: z.string().min(1).max(200).optional() });
const Rotation = z.strictObject({ graceSeconds: z.int().min(0).max(30 * 86_400).default(DEFAULT_KEY_GRACE_SECONDS) });
const Replacement = z.strictObject({ clientKey: ClientKey });
const WebhookSecret = z.strictObject({ secret: z.string().min(8).max(500), shopDomain: ShopDomain.optional() });
const SecretRotation = WebhookSecret.extend({ graceSeconds: Rotation.shape.graceSeconds });
const Target = z.object({ environment: Environment, client: ClientSlug });
const WebhookTarget = Target.extend({ source: Source });

/** The object of the tenant the (validated) path names. */
const stubOf = (c: Context<GatewayApp>, p: z.output<typeof Target>) => tenantStub(c.env, tenantName(p.environment, p.client));
/**
 * After a change to the tenant's keys or registration: this isolate's copies of its verified keys
 * go at once; other isolates' lapse within `ACCESS_CACHE_MS` (lib/upstream/access-cache.ts).
 */
const dropCopies = (c: Context<GatewayApp>, p: z.output<typeof Target>) => c.var.accessCache.dropTenant(tenantName(p.environment, p.client));

export const adminRoutes = new Hono<GatewayApp>()
  .use("*", requireAdmin)
  .post("/tenants", validJson(NewTenant), async (c) => {
    const input = c.req.valid("json");
    return c.json(await registerTenant(c.env, { ...input, name: input.name ?? input.client }), 201);
  })
  .get("/tenants", async (c) => c.json({ tenants: await listTenants(c.env) }))
  .post("/tenants/:environment/:client/gateway-keys", validParams(Target), validJson(Rotation, {}), async (c) => {
    const rotated = unwrap(await stubOf(c, c.req.valid("param")).rotateGatewayKey(c.req.valid("json").graceSeconds));
    dropCopies(c, c.req.valid("param"));
    return c.json(rotated, 201);
  })
  .put("/tenants/:environment/:client/client-key", validParams(Target), validJson(Replacement), async (c) => {
    unwrap(await stubOf(c, c.req.valid("param")).replaceClientKey(c.req.valid("json").clientKey));
    dropCopies(c, c.req.valid("param"));
    return c.body(null, 204);
  })
  .put("/tenants/:environment/:client/webhooks/:source", validParams(WebhookTarget), validJson(WebhookSecret), async (c) => {
    const { secret, shopDomain } = c.req.valid("json");
    unwrap(await stubOf(c, c.req.valid("param")).setWebhookSecret(c.req.valid("param").source, secret, { shopDomain }));
    return c.body(null, 204);
  })
  .post("/tenants/:environment/:client/webhooks/:source/secrets", validParams(WebhookTarget), validJson(SecretRotation), async (c) => {
    const { secret, ...opts } = c.req.valid("json");
    return c.json(unwrap(await stubOf(c, c.req.valid("param")).setWebhookSecret(c.req.valid("param").source, secret, opts)), 201);
  })
  .put("/tenants/:environment/:client/order-mapping", validParams(Target), validJson(OrderMappingInput), async (c) => c.json(unwrap(await stubOf(c, c.req.valid("param")).setOrderMapping(c.req.valid("json")))))
  .get("/tenants/:environment/:client/order-mapping", validParams(Target), async (c) => c.json(unwrap(await stubOf(c, c.req.valid("param")).orderMapping())))
  .delete("/tenants/:environment/:client", validParams(Target), async (c) => {
    const { environment, client } = c.req.valid("param");
    await removeTenant(c.env, tenantName(environment, client));
    dropCopies(c, { environment, client });
    return c.body(null, 204);
  });
