/**
 * @module A tenant's page: token, gateway keys (a key only when just issued, once), webhooks with
 * their secrets and bound shops, assistants connected through OAuth, the order mapping, removal.
 */
import type { GrantView } from "../../assistants/tenant/assistant-grants";
import type { ShopView } from "../../orders/tenant/webhook-setup";
import type { Flash } from "../flash";
import { connectionSummary, tenantPath, tokenSummary, when } from "../views";
import type { WebhookStatus } from "../../orders/tenant/webhook-status";
import { Source } from "../../orders/order";
import { Csrf, Layout } from "../layout";
import { Table } from "../table";
import { AssistantGrants } from "../../assistants/console/assistant-grants";
import { FormMessage, FreshKey } from "./feedback";
import { MappingFields } from "./mapping";
import { WebhookForm } from "../../orders/console-webhook-form";
import type { TenantRow } from "./tenants";
import { WebhookStatusSection } from "../../orders/console-webhook-status";

export interface TenantDetail extends TenantRow {
  createdAt: string;
  gatewayKeys: { createdAt: string; retiresAt: string | null }[];
}

export interface TenantPageProps {
  csrf: string;
  origin: string;
  tenant: TenantDetail;
  mapping: Record<string, string>;
  /** The shop-naming sources' bindings and last refusals. */
  shops: ShopView[];
  /** What the last form post said (a notice, an error, a key shown once), beside its form. */
  flash?: Flash | undefined;
  /** Each source's webhook status: secret, shop, last accepted and refused delivery. */
  webhooks?: WebhookStatus[] | undefined;
  /** The assistants connected through OAuth (live grants), newest first. */
  grants?: GrantView[] | undefined;
  /** The tenant's disabled webhook endpoints (events out), for a notice. */
  disabledEndpoints?: { id: string; url: string; reason: string | null }[] | undefined;
}

/** Names of the counters, as the page says them. */
const COUNTER_LABELS: Record<string, string> = {
  upstreamCalls: "Upstream calls",
  tokensIssued: "Tokens issued",
  tokenWaits: "Callers that waited for a token",
  keyChecks: "Gateway key checks",
};

/** The tenant's page. */
export function TenantPage(p: TenantPageProps) {
  const t = p.tenant;
  const token = tokenSummary(t.token);
  const path = (rest: string) => tenantPath(t.environment, t.client, rest);
  return (
    <Layout title={t.tenant} csrf={p.csrf}>
      <h1>{t.tenant}</h1>
      <p class="muted">{`${t.name}, connected ${when(t.createdAt)}.`}</p>
      <JumpLinks />

      <h2 id="token">Token</h2>
      {t.connection?.state === "lost" ? (
        <div class="error" role="alert">
          <p>
            {`The connection was lost ${when(t.connection.lostAt)}: the API refused the client key (${t.connection.reason ?? "no reason given"}). The client removed the integration or its key; connect the client again and set the new key.`}
          </p>
        </div>
      ) : null}
      <dl>
        <dt>Connection</dt>
        <dd>{connectionSummary(t.connection)}</dd>
        <dt>State</dt>
        <dd>{token.state}</dd>
        <dt>Expires</dt>
        <dd>{token.expiry}</dd>
        <dt>Last error</dt>
        <dd>{t.lastError ?? "–"}</dd>
        {Object.entries(t.counters).map(([name, n]) => (
          <>
            <dt>{COUNTER_LABELS[name] ?? name}</dt>
            <dd>{n}</dd>
          </>
        ))}
      </dl>
      {token.note ? <p class="muted">{token.note}</p> : null}

      <h2 id="keys">Gateway keys</h2>
      <FreshKey flash={p.flash} />
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

      <AssistantGrants csrf={p.csrf} path={path("")} grants={p.grants ?? []} flash={p.flash} />

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
          flash={p.flash}
        />
      ))}
      {p.webhooks && <WebhookStatusSection sources={p.webhooks} />}

      <h2 id="mapping">Order mapping</h2>
      <p>How shop orders become invoices. The fields show the mapping in force.</p>
      <MappingFields
        csrf={p.csrf}
        action={path("/order-mapping")}
        values={p.flash?.at === "mapping" ? { ...p.mapping, ...p.flash.values } : p.mapping}
        flash={p.flash}
      />

      <h2 id="orders">Orders</h2>
      <p>
        <a href={path("/orders")}>Orders</a>: every shop order's run, failed ones with their error
        and a Retry button. <a href={path("/payouts")}>Payouts</a>: each payout's voucher or what
        keeps it from matching, the orders in no payout yet, and the accounts they need.{" "}
        <a href={path("/requests")}>Requests</a>: its last API calls.{" "}
        <a href={path("/events")}>Events</a>: its webhook endpoints, their deliveries, replay.
      </p>
      {p.disabledEndpoints?.map((d) => (
        <p class="error" role="alert">
          {`Webhook endpoint ${d.url} is disabled: ${d.reason ?? "–"} `}
          <a href={path(`/events#${d.id}`)}>See its deliveries</a>
        </p>
      ))}

      <h2 id="remove">Remove</h2>
      <FormMessage flash={p.flash} at="remove" />
      <form method="post" action={path("/remove")}>
        <Csrf token={p.csrf} />
        <p>
          Removing the tenant deletes its client key, token, gateway keys, assistants' connections,
          webhook secrets, order runs, webhook endpoints and event log from the gateway.
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

/** Where each part of this tall page starts. */
function JumpLinks() {
  const parts = [
    ["token", "Token"],
    ["keys", "Gateway keys"],
    ["assistants", "Assistants"],
    ["webhooks", "Webhooks"],
    ["mapping", "Order mapping"],
    ["orders", "Orders"],
    ["remove", "Remove"],
  ];
  return (
    <nav aria-label="On this page" class="jump">
      {parts.map(([id, text]) => (
        <a href={`#${id}`}>{text}</a>
      ))}
    </nav>
  );
}
