/**
 * @module
 * The tenants page (every tenant with its token) and connecting a client through onboarding.
 */
import type { Environment } from "../../../lib/config";
import { tenantPath, tokenSummary, when, type TokenView } from "../../../lib/console/views";
import { Csrf, Layout } from "../layout";
import type { TenantView } from "../../../lib/tenant-view";
import { CallCounters } from "./call-counters";
import { Table } from "../table";

/** One tenant as the list shows it. */
export interface TenantRow {
  tenant: string;
  environment: Environment;
  client: string;
  name: string;
  token: TokenView;
  lastError: string | null;
  counters: Record<string, number>;
  callCounters?: TenantView["callCounters"];
}

/** The tenants page. */
export function TenantsPage(p: {
  csrf: string;
  tenants: TenantRow[];
  notice?: string | undefined;
}) {
  return (
    <Layout title="Tenants" csrf={p.csrf}>
      <h1>Tenants</h1>
      {p.notice ? (
        <p class="notice" role="status">
          {p.notice}
        </p>
      ) : null}
      {p.tenants.length === 0 ? (
        <p>No tenants yet. Connect a client below.</p>
      ) : (
        <Table
          columns={["Tenant", "Name", "Token", "Token expires", "Upstream calls", "Last error"]}
          rows={p.tenants.map((t) => {
            const token = tokenSummary(t.token);
            return [
              <a href={tenantPath(t.environment, t.client)}>{t.tenant}</a>,
              t.name,
              token.state,
              token.expiry,
              t.counters.upstreamCalls ?? 0,
              t.lastError ?? "–",
            ];
          })}
        />
      )}
      <CallCounters tenants={p.tenants} />
      <ConnectForm csrf={p.csrf} />
    </Layout>
  );
}

/** Onboarding v2's first step: the client's user approves on the accounting system's page. */
function ConnectForm(p: { csrf: string }) {
  return (
    <section aria-labelledby="connect">
      <h2 id="connect">Connect a client</h2>
      <p>
        The client's user approves the integration in the accounting system. You get a link to send
        them; no client key passes through anyone's hands.
      </p>
      <form method="post" action="/console/onboarding">
        <Csrf token={p.csrf} />
        <label for="environment">Environment</label>
        <select id="environment" name="environment">
          <option value="demo">demo</option>
          <option value="production">production</option>
        </select>
        <label for="organizationNumber">Organization number (optional)</label>
        <input
          id="organizationNumber"
          name="organizationNumber"
          inputmode="numeric"
          pattern="\s*([0-9]{9})?\s*"
          autocomplete="off"
        />
        <button type="submit">Start onboarding</button>
      </form>
    </section>
  );
}

/** The answer to "Start onboarding": the link to hand to the client. */
export function OnboardingStartedPage(p: {
  csrf: string;
  temporaryUrl: string;
  expiresAt: string;
  environment: Environment;
}) {
  return (
    <Layout title="Connect a client" csrf={p.csrf}>
      <h1>Connect a client</h1>
      <p>
        Send this link to a user of the client company in {p.environment}, or open it yourself if
        you are that user:
      </p>
      <p>
        <a href={p.temporaryUrl} rel="noreferrer">
          Open the approval page
        </a>
      </p>
      <p>
        The link works until {when(p.expiresAt)}. When the user approves, the gateway connects each
        approved company as a tenant, and it shows up under <a href="/console">Tenants</a>.
      </p>
    </Layout>
  );
}
