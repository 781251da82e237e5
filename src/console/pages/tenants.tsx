/**
 * @module
 * The tenants page (every tenant with its token) and connecting a client through onboarding.
 */
import type { Environment } from "../../kernel/config";
import type { Flash } from "../flash";
import { connectionSummary, tenantPath, tokenSummary, type TokenView } from "../views";
import type { TenantView } from "../../tenant/view";
import type { ConnectionView } from "../../upstream/tenant/connection";
import { Layout } from "../layout";
import { CallCounters } from "./call-counters";
import { Table } from "../table";
import { ConnectForm } from "../../onboarding/console-connect";

/** One tenant as the list shows it. */
export interface TenantRow {
  tenant: string;
  environment: Environment;
  client: string;
  name: string;
  token: TokenView;
  /** The connection's losses and recoveries (`upstream/tenant/connection.ts`). */
  connection?: ConnectionView | undefined;
  lastError: string | null;
  counters: Record<string, number>;
  callCounters?: TenantView["callCounters"];
}

export function TenantsPage(p: {
  csrf: string;
  tenants: TenantRow[];
  notice?: string | undefined;
  /** What the last form post said (an onboarding just started). */
  flash?: Flash | undefined;
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
          columns={[
            "Tenant",
            "Name",
            "Connection",
            "Token",
            "Token expires",
            "Upstream calls",
            "Last error",
          ]}
          rows={p.tenants.map((t) => {
            const token = tokenSummary(t.token);
            return [
              <a href={tenantPath(t.environment, t.client)}>{t.tenant}</a>,
              t.name,
              connectionSummary(t.connection),
              token.state,
              token.expiry,
              t.counters.upstreamCalls ?? 0,
              t.lastError ?? "–",
            ];
          })}
        />
      )}
      <CallCounters tenants={p.tenants} />
      <ConnectForm csrf={p.csrf} flash={p.flash} />
    </Layout>
  );
}
