/**
 * @module The tenants and one tenant: list, onboarding, key rotation, webhook secrets, the order
 * mapping, removal. Each action is the admin API's own call, the session standing for the token.
 */
import type { Context } from "hono";
import type { ConsoleApp } from "./app";
import { tenantWithMapping } from "./data";
import { bookErrors, mappingFromForm, typedValues } from "./mapping-form";
import { secretFormErrors } from "./secret-form";
import { checkMapping } from "../orders/mapping-check";
import { SOURCE_LABELS, tenantPath } from "./views";
import type { Environment } from "../kernel/config";
import { startOnboarding } from "../onboarding/start";
import { problemOf, unwrap, type Outcome } from "../kernel/outcome";
import { ShopDomain } from "../orders/adapters/shopify";
import { asOperator, eventsStub, tenantName } from "../kernel/stubs";
import { listTenants, removeTenant } from "../tenant/admin";
import * as route from "./contract";
import { seeWith, takeFlash } from "./flash-redirect";
import { TenantPage, type TenantPageProps } from "./pages/tenant";
import { TenantsPage } from "./pages/tenants";
import { html, see } from "./render";
import type { ConsoleRouter } from "./router";

type Target = { environment: Environment; client: string };
const origin = (c: Context) => new URL(c.req.url).origin;
/** The isolate's verified copies of the tenant's keys go at once after a key change. */
const dropCopies = (c: Context<ConsoleApp>, p: Target) =>
  c.var.accessCache.dropTenant(tenantName(p.environment, p.client));

/** What the secret forms add to a refusal: the page never holds a secret, so it cannot keep one. */
const SECRET_AGAIN = "Type the secret again: the page does not keep it.";

/**
 * The detail of a refusal the operator can mend at the form (a conflict, a bad or unprocessable
 * value), or null when `call` succeeded; anything else (no such tenant) is thrown as its problem.
 */
async function refusal(call: Promise<Outcome<unknown>>): Promise<string | null> {
  const o = await call;
  if (o.ok) return null;
  if (["conflict", "unprocessable", "bad-request"].includes(o.error.reason)) return o.error.detail;
  throw problemOf(o.error);
}

/** The tenant's page with `extra` (a notice, a fresh key, the mapping's errors). */
async function tenantPage(
  c: Context<ConsoleApp>,
  p: Target,
  extra: Partial<TenantPageProps> = {},
  status: 200 | 400 = 200,
) {
  const { tenant, mapping, shops } = await tenantWithMapping(c.env, p.environment, p.client);
  const endpoints = unwrap(
    await eventsStub(c.env, tenantName(p.environment, p.client)).listEndpoints(),
  );
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
      grants={unwrap(
        await asOperator(c.env, tenantName(p.environment, p.client), (f) => f.assistantGrants()),
      )}
      disabledEndpoints={endpoints
        .filter((e) => e.state === "disabled")
        .map((e) => ({ id: e.id, url: e.url, reason: e.disabledReason }))}
      {...extra}
    />,
    status,
  );
}

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
          flash={(await takeFlash(c)) ?? undefined}
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
      const { temporaryUrl, expiresAt, environment: env } = started;
      return seeWith(c, "/console", {
        at: "connect",
        onboarding: { temporaryUrl, expiresAt, environment: env },
      });
    })
    .openapi(route.tenantPage, async (c) =>
      tenantPage(c, c.req.valid("param"), { flash: (await takeFlash(c)) ?? undefined }),
    )
    .openapi(route.rotateKey, async (c) => {
      const p = c.req.valid("param");
      const rotated = unwrap(
        await asOperator(c.env, tenantName(p.environment, p.client), (f) =>
          f.rotateGatewayKey(Number(c.req.valid("form").graceSeconds)),
        ),
      );
      dropCopies(c, p);
      // Redirected, never rendered here: a reload of the answer must not rotate again (and, with
      // no grace, kill the key just copied). The key travels sealed, shown once by the GET.
      return seeWith(c, tenantPath(p.environment, p.client), { at: "keys", freshKey: rotated });
    })
    .openapi(route.saveSecret, async (c) => {
      const p = c.req.valid("param");
      const { secret, shopDomain = "" } = c.req.valid("form");
      const at = `wh-${p.source}`;
      const back = tenantPath(p.environment, p.client);
      const domain = shopDomain.trim();
      // The typed domain goes back to the form; the secret never does (the page says so).
      const values = domain ? { shopDomain: domain } : undefined;
      const errors = secretFormErrors(p.source, secret, domain);
      if (errors.length > 0) return seeWith(c, back, { at, errors, values, error: SECRET_AGAIN });
      const failed = await refusal(
        asOperator(c.env, tenantName(p.environment, p.client), (f) =>
          f.setWebhookSecret(p.source, secret, {
            shopDomain: domain ? ShopDomain.parse(domain) : undefined,
          }),
        ),
      );
      if (failed) return seeWith(c, back, { at, values, error: `${failed} ${SECRET_AGAIN}` });
      return seeWith(c, back, { at, notice: `${SOURCE_LABELS[p.source]} secret saved.` });
    })
    .openapi(route.confirmShop, async (c) => {
      const p = c.req.valid("param");
      const at = `wh-${p.source}`;
      const failed = await refusal(
        asOperator(c.env, tenantName(p.environment, p.client), (f) =>
          f.confirmShop(p.source, c.req.valid("form").shop),
        ),
      );
      return seeWith(
        c,
        tenantPath(p.environment, p.client),
        failed
          ? { at, error: failed }
          : { at, notice: `${SOURCE_LABELS[p.source]} shop confirmed.` },
      );
    })
    .openapi(route.saveMapping, async (c) => {
      const p = c.req.valid("param");
      const back = tenantPath(p.environment, p.client);
      const form = c.req.valid("form");
      const parsed = mappingFromForm(form);
      if (!parsed.ok) {
        return seeWith(c, back, {
          at: "mapping",
          error: "The mapping was not saved. Correct these fields:",
          errors: parsed.errors,
          values: typedValues(form),
        });
      }
      // Checked against the client's books before anything is stored (orders/mapping-check.ts).
      const unfit = await checkMapping(c.env, tenantName(p.environment, p.client), parsed.value);
      if (unfit.length > 0) {
        return seeWith(c, back, {
          at: "mapping",
          error: "The mapping was not saved: the client's books lack what it names.",
          errors: bookErrors(unfit),
          values: typedValues(form),
        });
      }
      const saved = await asOperator(c.env, tenantName(p.environment, p.client), (f) =>
        f.setOrderMapping(parsed.value),
      );
      // A clearing account that would mix providers' money: beside its field, as the books' are.
      if (!saved.ok && saved.error.field)
        return seeWith(c, back, {
          at: "mapping",
          error: "The mapping was not saved:",
          errors: bookErrors([{ path: saved.error.field, message: saved.error.detail }]),
          values: typedValues(form),
        });
      unwrap(saved);
      return seeWith(c, back, { at: "mapping", notice: "Order mapping saved." });
    })
    .openapi(route.removeTenant, async (c) => {
      const p = c.req.valid("param");
      const form = c.req.valid("form");
      if (form.confirm !== "yes") {
        return seeWith(c, tenantPath(p.environment, p.client), {
          at: "remove",
          error: "Not removed: tick “Yes, remove this tenant” to remove it.",
        });
      }
      const name = tenantName(p.environment, p.client);
      await removeTenant(c.env, name, { offboard: form.offboard === "yes", origin: origin(c) });
      dropCopies(c, p);
      return see(c, `/console?removed=${encodeURIComponent(name)}`);
    });
}
