/**
 * @module
 * The operator's search across tenants: a bounded fan-out, one RPC to each tenant's object (its
 * `search` section) and, for an event id, one to its events object. No index to keep in step and
 * no upstream call: a search costs `SEARCH_TENANTS` object calls at most, `SEARCH_FANOUT` at once.
 * Tenants past the bound are not searched, and the answer says how many.
 */
import { tenantPath } from "../console/views";
import type { Bindings } from "../kernel/config";
import { log } from "../kernel/log";
import {
  asOperator,
  directoryStub,
  eventsStub,
  parseTenantName,
  type TenantName,
} from "../kernel/stubs";
import type { SearchHit, TenantHit } from "./hits";

/** Tenants one search reads at most, in name order. */
export const SEARCH_TENANTS = 500;
/** Tenants read at once. */
const SEARCH_FANOUT = 10;
/** Hits one search answers at most. */
export const SEARCH_HITS = 50;

/** An event id, the one kind only the events object holds. */
const EVENT_ID = /^evt_[A-Za-z0-9]{26}$/;

export interface SearchResult {
  hits: SearchHit[];
  tenantsSearched: number;
  tenantsNotSearched: number;
  truncated: boolean;
}

/** Searches every tenant (up to the bound) for `q`, trimmed and checked (`SearchText`). */
export async function searchAll(env: Bindings, q: string): Promise<SearchResult> {
  const names = (await directoryStub(env).list()) as TenantName[];
  const searched = names.slice(0, SEARCH_TENANTS);
  const hits: SearchHit[] = [];
  for (let i = 0; i < searched.length; i += SEARCH_FANOUT) {
    const found = await Promise.all(
      searched.slice(i, i + SEARCH_FANOUT).map((name) => searchTenant(env, name, q)),
    );
    hits.push(...found.flat());
  }
  return {
    hits: hits.slice(0, SEARCH_HITS),
    tenantsSearched: searched.length,
    tenantsNotSearched: names.length - searched.length,
    truncated: hits.length > SEARCH_HITS,
  };
}

/** One tenant's hits, linked; a tenant that fails to answer is logged and skipped. */
async function searchTenant(env: Bindings, name: TenantName, q: string): Promise<SearchHit[]> {
  const parsed = parseTenantName(name);
  if (!parsed.ok) return [];
  const page = tenantPath(parsed.value.environment, parsed.value.client);
  const linked = (h: TenantHit): SearchHit => ({
    kind: h.kind,
    id: h.id,
    label: h.label,
    at: h.at,
    tenant: name,
    href: `${page}${h.page}`,
  });
  try {
    const own = await asOperator(env, name, (f) => f.search(q));
    const hits = own.ok ? own.value.map(linked) : [];
    if (EVENT_ID.test(q)) {
      const event = await eventsStub(env, name).find(q);
      if (event)
        hits.push(
          linked({
            kind: "event",
            id: event.id,
            label: `Event ${event.type} ${event.id}`,
            page: "/events",
            at: event.timestamp,
          }),
        );
    }
    return hits;
  } catch (e) {
    log.warn("search-tenant-failed", { tenant: name, error: String(e) });
    return [];
  }
}
