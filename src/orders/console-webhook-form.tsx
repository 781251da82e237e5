/**
 * @module
 * One source's webhook URL and secret form on the tenant's page (`tenant.tsx`), with the shop it
 * is bound to, and what the last save said, beside the form. A refused save comes back with the
 * shop domain as typed; the secret is never put back on a page.
 */
import type { ShopView } from "./tenant/webhook-setup";
import type { Environment } from "../kernel/config";
import type { Flash } from "../console/flash";
import { SOURCE_LABELS, tenantPath, webhookUrl } from "../console/views";
import type { Source } from "./order";
import { Csrf } from "../console/layout";
import { FormMessage } from "../console/pages/feedback";
import { ShopBindingView } from "./console-shop-binding";

/** One source's webhook URL and secret form. */
export function WebhookForm(p: {
  csrf: string;
  origin: string;
  environment: Environment;
  client: string;
  source: Source;
  shop: ShopView | undefined;
  flash: Flash | undefined;
}) {
  const label = SOURCE_LABELS[p.source];
  const id = `secret-${p.source}`;
  return (
    <section aria-labelledby={`wh-${p.source}`}>
      <h3 id={`wh-${p.source}`}>{label}</h3>
      <FormMessage flash={p.flash} at={`wh-${p.source}`} />
      <p>
        URL: <code>{webhookUrl(p.origin, p.source, p.environment, p.client)}</code>
      </p>
      {p.shop ? (
        <ShopBindingView
          csrf={p.csrf}
          action={tenantPath(p.environment, p.client, `/webhooks/${p.source}/confirm-shop`)}
          view={p.shop}
        />
      ) : null}
      <form method="post" action={tenantPath(p.environment, p.client, `/webhooks/${p.source}`)}>
        <Csrf token={p.csrf} />
        <label for={id}>{`${label} webhook secret`}</label>
        <input
          id={id}
          name="secret"
          type="password"
          autocomplete="off"
          required
          minlength={8}
          maxlength={500}
        />
        {p.source === "shopify" ? (
          <>
            <label for="shop-domain">Shop domain</label>
            <p id="shop-domain-hint" class="muted">
              Required: only webhooks from this shop are taken (every shop of one app signs with the
              same secret).
            </p>
            <input
              id="shop-domain"
              name="shopDomain"
              placeholder="example.myshopify.com"
              aria-describedby="shop-domain-hint"
              autocomplete="off"
              value={p.flash?.at === `wh-${p.source}` ? p.flash.values?.shopDomain : undefined}
              required
            />
          </>
        ) : null}
        <button type="submit">{`Save ${label} secret`}</button>
      </form>
    </section>
  );
}
