/**
 * @module
 * A tenant's page: its token, its gateway keys (never a key, except one just issued, once), the
 * webhook URLs with their secret forms and the shop each is bound to (a pin a first delivery made
 * before shops were bound by the operator, with a button to confirm it; the last delivery refused
 * for its shop), the order mapping, and removal.
 */
import type { ShopView } from "../../../durable/tenant/webhook-setup";
import type { WebhookStatus } from "../../../durable/tenant/webhook-status";
import type { Environment } from "../../../lib/config";
import {
  SOURCE_LABELS,
  tenantPath,
  tokenSummary,
  webhookUrl,
  when,
} from "../../../lib/console/views";
import { Source } from "../../../lib/orders/order";
import type { FieldError } from "../../../lib/problem";
import { Csrf, Layout } from "../layout";
import { Table } from "../table";
import { MappingFields } from "./mapping";
import { ShopBindingView } from "./shop-binding";
import type { TenantRow } from "./tenants";
import { WebhookStatusSection } from "./webhook-status";

/** The tenant as its page shows it. */
export interface TenantDetail extends TenantRow {
  createdAt: string;
  gatewayKeys: { createdAt: string; retiresAt: string | null }[];
}

/** What the page shows besides the tenant. */
export interface TenantPageProps {
  csrf: string;
  origin: string;
  tenant: TenantDetail;
  mapping: Record<string, string>;
  /** The shop-naming sources' bindings and last refusals. */
  shops: ShopView[];
  webhooks?: WebhookStatus[] | undefined;
  notice?: string | undefined;
  /** A key just issued: shown here, this once. */
  freshKey?: { gatewayKey: string; previousKeysRetireAt: string } | undefined;
  mappingErrors?: FieldError[] | undefined;
}

/** The tenant's page. */
export function TenantPage(p: TenantPageProps) {
  const t = p.tenant;
  const token = tokenSummary(t.token);
  const path = (rest: string) => tenantPath(t.environment, t.client, rest);
  return (
    <Layout title={t.tenant} csrf={p.csrf}>
      <h1>{t.tenant}</h1>
      <p class="muted">{`${t.name}, connected ${when(t.createdAt)}.`}</p>
      {p.notice ? (
        <p class="notice" role="status">
          {p.notice}
        </p>
      ) : null}
      {p.freshKey ? (
        <div class="fresh" role="status">
          <p>
            <label for="new-gateway-key">New gateway key (shown once)</label>
          </p>
          <output id="new-gateway-key">{p.freshKey.gatewayKey}</output>
          <p>
            Copy it now: the gateway keeps only a hash of it and cannot show it again. Earlier keys
            stop working at {when(p.freshKey.previousKeysRetireAt)}.
          </p>
        </div>
      ) : null}

      <h2 id="token">Token</h2>
      <dl>
        <dt>State</dt>
        <dd>{token.state}</dd>
        <dt>Expires</dt>
        <dd>{token.expiry}</dd>
        <dt>Last error</dt>
        <dd>{t.lastError ?? "–"}</dd>
        {Object.entries(t.counters).map(([name, n]) => (
          <>
            <dt>{name}</dt>
            <dd>{n}</dd>
          </>
        ))}
      </dl>
      {token.note ? <p class="muted">{token.note}</p> : null}

      <h2 id="keys">Gateway keys</h2>
      <Table
        columns={["Key", "Created", "Retires"]}
        rows={t.gatewayKeys.map((k, i) => [
          <code>{`#${i + 1} lg_${t.environment}_${t.client}_…`}</code>,
          when(k.createdAt),
          k.retiresAt ? when(k.retiresAt) : "in use",
        ])}
      />
      <form method="post" action={path("/gateway-keys")}>
        <Csrf token={p.csrf} />
        <label for="graceSeconds">Earlier keys keep working for</label>
        <select id="graceSeconds" name="graceSeconds">
          <option value="0">no time: they stop at once</option>
          <option value="3600">one hour</option>
          <option value="86400" selected>
            one day
          </option>
          <option value="604800">one week</option>
        </select>
        <button type="submit">Rotate gateway key</button>
      </form>

      <h2 id="webhooks">Webhooks</h2>
      <p>
        Paste a shop's URL into the shop's webhook settings, and save the signing secret the shop
        shows you here. The gateway stores it sealed and never shows it again.
      </p>
      {Source.options.map((s) => (
        <WebhookForm
          csrf={p.csrf}
          origin={p.origin}
          environment={t.environment}
          client={t.client}
          source={s}
          shop={p.shops.find((v) => v.source === s)}
        />
      ))}
      {p.webhooks && <WebhookStatusSection sources={p.webhooks} />}

      <h2 id="mapping">Order mapping</h2>
      <p>How shop orders become invoices. The fields show the mapping in force.</p>
      <MappingFields
        csrf={p.csrf}
        action={path("/order-mapping")}
        values={p.mapping}
        errors={p.mappingErrors}
      />

      <h2 id="orders">Orders</h2>
      <p>
        <a href={path("/orders")}>Orders</a>: every shop order's run, failed ones with their error
        and a Retry button. <a href={path("/requests")}>Requests</a>: its last API calls.
      </p>

      <h2 id="remove">Remove</h2>
      <form method="post" action={path("/remove")}>
        <Csrf token={p.csrf} />
        <p>
          Removing the tenant deletes its client key, token, gateway keys, webhook secrets and order
          runs from the gateway.
        </p>
        <p>
          <input type="checkbox" id="confirm-remove" name="confirm" value="yes" required />
          <label class="inline" for="confirm-remove">
            Yes, remove this tenant
          </label>
        </p>
        <p>
          <input type="checkbox" id="offboard" name="offboard" value="yes" />
          <label class="inline" for="offboard">
            Also remove the integration from the client in the accounting system (offboarding)
          </label>
        </p>
        <button type="submit" class="danger">
          Remove tenant
        </button>
      </form>
    </Layout>
  );
}

/** One source's webhook URL and secret form. */
function WebhookForm(p: {
  csrf: string;
  origin: string;
  environment: Environment;
  client: string;
  source: Source;
  shop: ShopView | undefined;
}) {
  const label = SOURCE_LABELS[p.source];
  const id = `secret-${p.source}`;
  return (
    <section aria-labelledby={`wh-${p.source}`}>
      <h3 id={`wh-${p.source}`}>{label}</h3>
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
              required
            />
          </>
        ) : null}
        <button type="submit">{`Save ${label} secret`}</button>
      </form>
    </section>
  );
}
