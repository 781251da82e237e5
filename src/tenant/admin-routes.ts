/**
 * @module
 * The operator API (`Authorization: Bearer <ADMIN_TOKEN>`): tenants, keys, webhook secrets, the
 * order mapping (checked against the client's books first), the Stripe key, payouts and assistants'
 * grants. Declarations: `tenant/admin-contract.ts`.
 */
import type { Context } from "hono";
import type { z } from "zod";
import type { GatewayApp } from "../kernel/app";
import { revokeGrantRecords } from "../assistants/oauth/revoke";
import { assertMappingFits } from "../orders/mapping-check";
import { unwrap } from "../kernel/outcome";
import { asOperator, tenantName, type OperatorStub } from "../kernel/stubs";
import { startOnboarding } from "../onboarding/start";
import { listTenants, registerTenant, removeTenant, replaceClientKey } from "./admin";
import { requireAdmin } from "./door/admin-auth";
import { requestLogPage } from "../request-log/page";
import * as route from "./admin-contract";
import * as activity from "./admin-activity-contract";
import { gatewayRouter, withDefaults } from "../kernel/routes/contract-kit";
import * as onboarding from "../onboarding/contract";

export { DEFAULT_KEY_GRACE_SECONDS } from "./admin-contract";

type Target = z.output<typeof route.Target>;
/** `call` on the operator's face of the tenant the validated path names (behind `requireAdmin`). */
const onTenant = <T>(c: Context<GatewayApp>, p: Target, call: (face: OperatorStub) => T) =>
  asOperator(c.env, tenantName(p.environment, p.client), call);
/** After a change to the tenant's keys or registration: this isolate's copies go at once. */
const dropCopies = (c: Context<GatewayApp>, p: Target) =>
  c.var.accessCache.dropTenant(tenantName(p.environment, p.client));

const router = gatewayRouter();
router.use("*", requireAdmin);

export const adminRoutes = router
  .openapi(route.registerTenant, async (c) => {
    const input = c.req.valid("json");
    return c.json(await registerTenant(c.env, { ...input, name: input.name ?? input.client }), 201);
  })
  .openapi(route.listTenants, async (c) => c.json({ tenants: await listTenants(c.env) }, 200))
  .openapi(route.rotateGatewayKey, async (c) => {
    const { graceSeconds } = withDefaults(route.Rotation, c.req.valid("json"));
    const rotated = unwrap(
      await onTenant(c, c.req.valid("param"), (f) => f.rotateGatewayKey(graceSeconds)),
    );
    dropCopies(c, c.req.valid("param"));
    return c.json(rotated, 201);
  })
  .openapi(route.replaceClientKey, async (c) => {
    const p = c.req.valid("param");
    const replaced = await replaceClientKey(
      c.env,
      tenantName(p.environment, p.client),
      c.req.valid("json").clientKey,
    );
    dropCopies(c, p);
    return c.json(replaced, 200);
  })
  .openapi(route.setWebhookSecret, async (c) => {
    const { secret, shopDomain } = c.req.valid("json");
    unwrap(
      await onTenant(c, c.req.valid("param"), (f) =>
        f.setWebhookSecret(c.req.valid("param").source, secret, { shopDomain }),
      ),
    );
    return c.body(null, 204);
  })
  .openapi(route.rotateWebhookSecret, async (c) => {
    const { secret, ...opts } = c.req.valid("json");
    return c.json(
      unwrap(
        await onTenant(c, c.req.valid("param"), (f) =>
          f.setWebhookSecret(c.req.valid("param").source, secret, opts),
        ),
      ),
      201,
    );
  })
  .openapi(route.setOrderMapping, async (c) => {
    const p = c.req.valid("param");
    await assertMappingFits(c.env, tenantName(p.environment, p.client), c.req.valid("json"));
    return c.json(unwrap(await onTenant(c, p, (f) => f.setOrderMapping(c.req.valid("json")))), 200);
  })
  .openapi(route.setStripeKey, async (c) =>
    c.json(
      unwrap(
        await onTenant(c, c.req.valid("param"), (f) => f.setStripeKey(c.req.valid("json").key)),
      ),
      200,
    ),
  )
  .openapi(route.getStripeKey, async (c) =>
    c.json(unwrap(await onTenant(c, c.req.valid("param"), (f) => f.stripeKey())), 200),
  )
  .openapi(route.removeStripeKey, async (c) => {
    unwrap(await onTenant(c, c.req.valid("param"), (f) => f.removeStripeKey()));
    return c.body(null, 204);
  })
  .openapi(route.setVippsKeys, async (c) =>
    c.json(
      unwrap(await onTenant(c, c.req.valid("param"), (f) => f.setVippsKeys(c.req.valid("json")))),
      200,
    ),
  )
  .openapi(route.getVippsKeys, async (c) =>
    c.json(unwrap(await onTenant(c, c.req.valid("param"), (f) => f.vippsKeys())), 200),
  )
  .openapi(route.removeVippsKeys, async (c) => {
    unwrap(await onTenant(c, c.req.valid("param"), (f) => f.removeVippsKeys()));
    return c.body(null, 204);
  })
  .openapi(route.getVipps, async (c) =>
    c.json(unwrap(await onTenant(c, c.req.valid("param"), (f) => f.vipps())), 200),
  )
  .openapi(route.readVipps, async (c) =>
    c.json(unwrap(await onTenant(c, c.req.valid("param"), (f) => f.readVipps())), 200),
  )
  .openapi(route.getOrderMapping, async (c) =>
    c.json(unwrap(await onTenant(c, c.req.valid("param"), (f) => f.orderMapping())), 200),
  )
  .openapi(activity.listRequests, async (c) => {
    const { environment, client } = c.req.valid("param");
    return c.json(await requestLogPage(c.env, environment, client, c.req.valid("query")), 200);
  })
  .openapi(activity.webhookStatus, async (c) =>
    c.json(
      { sources: unwrap(await onTenant(c, c.req.valid("param"), (f) => f.webhookStatus())) },
      200,
    ),
  )
  .openapi(onboarding.startOnboarding, async (c) => {
    const { environment, organizationNumber } = c.req.valid("json");
    return c.json(
      await startOnboarding(c.env, {
        environment,
        organizationNumber,
        origin: new URL(c.req.url).origin,
      }),
      201,
    );
  })
  .openapi(route.removeTenant, async (c) => {
    const { environment, client } = c.req.valid("param");
    await removeTenant(c.env, tenantName(environment, client), {
      offboard: c.req.valid("query").offboard === "true",
      origin: new URL(c.req.url).origin,
    });
    dropCopies(c, { environment, client });
    return c.body(null, 204);
  })
  .openapi(route.confirmPayout, async (c) => {
    const { source, payoutId, ...p } = c.req.valid("param");
    return c.json(unwrap(await onTenant(c, p, (f) => f.confirmPayout(source, payoutId))), 202);
  })
  .openapi(activity.listGrants, async (c) =>
    c.json(
      { grants: unwrap(await onTenant(c, c.req.valid("param"), (f) => f.assistantGrants())) },
      200,
    ),
  )
  .openapi(activity.revokeGrant, async (c) => {
    const p = c.req.valid("param");
    unwrap(await onTenant(c, p, (f) => f.revokeAssistantGrant(p.grant)));
    await revokeGrantRecords(
      c.env,
      new URL(c.req.url).origin,
      tenantName(p.environment, p.client),
      p.grant,
    );
    return c.body(null, 204);
  });
