/**
 * @module
 * The console's search results: each record found, its tenant and a link to its page.
 */
import { when } from "../console/views";
import { Layout } from "../console/layout";
import { Table } from "../console/table";
import type { SearchResult } from "./search";

export function SearchPage(p: SearchResult & { csrf: string; query: string }) {
  return (
    <Layout title={`Search: ${p.query}`} csrf={p.csrf} query={p.query}>
      <h1>{`Search: ${p.query}`}</h1>
      <p class="muted">
        {`${p.tenantsSearched} ${p.tenantsSearched === 1 ? "tenant" : "tenants"} searched: their orders, invoices, customers, requests, webhook deliveries, events and payouts as the gateway keeps them.`}
        {p.tenantsNotSearched > 0
          ? ` ${p.tenantsNotSearched} more tenants were not searched (a search reads the first ${p.tenantsSearched} by name).`
          : ""}
      </p>
      {p.hits.length === 0 ? (
        <p role="status">Nothing found.</p>
      ) : (
        <Table
          columns={["Found", "Tenant", "Kind", "When"]}
          rows={p.hits.map((h) => [<a href={h.href}>{h.label}</a>, h.tenant, h.kind, when(h.at)])}
        />
      )}
      {p.truncated ? <p class="muted">More was found than shown: narrow the search.</p> : null}
    </Layout>
  );
}
