/**
 * @module
 * The tenants and one tenant: list, connect a client (onboarding, `lib/onboarding/start.ts`),
 * rotate a gateway key (the new key on the answer page, once), webhook secrets, the order mapping,
 * removal. Each action is the admin API's own call; the session stands where the token stands
 * there.
 */
import type { Context } from "hono";
import type { ConsoleApp } from "../../lib/console/app";
import { tenantWithMapping } from "../../lib/console/data";
import { mappingFromForm } from "../../lib/console/mapping-form";
import { SOURCE_LABELS, tenantPath } from "../../lib/console/views";
import type { Environment } from "../../lib/config";
import { startOnboarding } from "../../lib/onboarding/start";
import { unwrap } from "../../lib/outcome";
import { Problem } from "../../lib/problem";
import { asOperator, tenantName } from "../../lib/stubs";
import { listTenants, removeTenant } from "../../lib/tenant-admin";
import * as route from "./contract";
import { MessagePage } from "./layout";
import { TenantPage, type TenantPageProps } from "./pages/tenant";
import { OnboardingStartedPage, TenantsPage } from "./pages/tenants";
import { html, see } from "./render";
import type { ConsoleRouter } from "./router";

type Target = { environment: Environment; client: string };
const origin = (c: Context) => new URL(c.req.url).origin;
/**
 * The isolate's verified copies of the tenant's keys go at once after a key change (as in
 * `routes/admin.ts`).
 */
const dropCopies = (c: Context<ConsoleApp>, p: Target) =>
  c.var.accessCache.dropTenant(tenantName(p.environment, p.client));

/** The tenant's page with `extra` (a notice, a fresh key, the mapping's errors). */
async function tenantPage(
  c: Context<ConsoleApp>,
  p: Target,
  extra: Partial<TenantPageProps> = {},
  status: 200 | 400 = 200,
) {
  const { tenant, mapping, shops } = await tenantWithMapping(c.env, p.environment, p.client);
  return html(
    c,
    <TenantPage
      csrf={c.var.console.csrf}
      origin={origin(c)}
      tenant={tenant}
      mapping={mapping}
      shops={shops}
      webhooks={unwrap(
        await asOperator(c.env, tenantName(p.environment, p.client), (f) => f.webhookStatus()),
      )}
      {...extra}
    />,
    status,
  );
}

/** Binds the tenant routes to `router`. */
export function tenantRoutes(router: ConsoleRouter) {
  return router
    .openapi(route.tenantsPage, async (c) => {
      const removed = c.req.valid("query").removed;
      return html(
        c,
        <TenantsPage
          csrf={c.var.console.csrf}
          tenants={await listTenants(c.env)}
          notice={removed ? `${removed} was removed.` : undefined}
        />,
      );
    })
    .openapi(route.startOnboarding, async (c) => {
      const { environment, organizationNumber } = c.req.valid("form");
      const started = await startOnboarding(c.env, {
        environment,
        organizationNumber: organizationNumber?.trim() || undefined,
        origin: origin(c),
      });
      return html(c, <OnboardingStartedPage csrf={c.var.console.csrf} {...started} />);
    })
    .openapi(route.tenantPage, async (c) => {
      const { saved, confirmed } = c.req.valid("query");
      const notice =
        confirmed !== undefined
          ? `${SOURCE_LABELS[confirmed]} shop confirmed.`
          : saved === undefined
            ? undefined
            : saved === "mapping"
              ? "Order mapping saved."
              : `${SOURCE_LABELS[saved]} secret saved.`;
      return tenantPage(c, c.req.valid("param"), { notice });
    })
    .openapi(route.rotateKey, async (c) => {
      const p = c.req.valid("param");
      const rotated = unwrap(
        await asOperator(c.env, tenantName(p.environment, p.client), (f) =>
          f.rotateGatewayKey(Number(c.req.valid("form").graceSeconds)),
        ),
      );
      dropCopies(c, p);
      return tenantPage(c, p, { freshKey: rotated });
    })
    .openapi(route.saveSecret, async (c) => {
      const p = c.req.valid("param");
      const { secret, shopDomain } = c.req.valid("form");
      const domain = shopDomain || undefined;
      if (domain !== undefined && p.source !== "shopify")
        throw new Problem("validation-failed", "Only Shopify is bound to a shop domain.");
      unwrap(
        await asOperator(c.env, tenantName(p.environment, p.client), (f) =>
          f.setWebhookSecret(p.source, secret, { shopDomain: domain }),
        ),
      );
      return see(c, `${tenantPath(p.environment, p.client)}?saved=${p.source}#webhooks`);
    })
    .openapi(route.confirmShop, async (c) => {
      const p = c.req.valid("param");
      unwrap(
        await asOperator(c.env, tenantName(p.environment, p.client), (f) =>
          f.confirmShop(p.source, c.req.valid("form").shop),
        ),
      );
      return see(c, `${tenantPath(p.environment, p.client)}?confirmed=${p.source}#webhooks`);
    })
    .openapi(route.saveMapping, async (c) => {
      const p = c.req.valid("param");
      const parsed = mappingFromForm(c.req.valid("form"));
      if (!parsed.ok) return tenantPage(c, p, { mappingErrors: parsed.errors }, 400);
      unwrap(
        await asOperator(c.env, tenantName(p.environment, p.client), (f) =>
          f.setOrderMapping(parsed.value),
        ),
      );
      return see(c, `${tenantPath(p.environment, p.client)}?saved=mapping#mapping`);
    })
    .openapi(route.removeTenant, async (c) => {
      const p = c.req.valid("param");
      const form = c.req.valid("form");
      if (form.confirm !== "yes") {
        return html(
          c,
          <MessagePage
            title="Not removed"
            message="Tick “Yes, remove this tenant” to remove it."
            csrf={c.var.console.csrf}
            link={{ href: tenantPath(p.environment, p.client), text: "Back to the tenant" }}
          />,
          400,
        );
      }
      const name = tenantName(p.environment, p.client);
      await removeTenant(c.env, name, { offboard: form.offboard === "yes" });
      dropCopies(c, p);
      return see(c, `/console?removed=${encodeURIComponent(name)}`);
    });
}
