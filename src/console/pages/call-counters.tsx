/**
 * @module
 * The tenants page's stored counters: upstream calls, waits for a permit and refusals, kept with
 * each tenant (they survive idling and restarts, unlike the governor's), with the time they count
 * from.
 */
import { when } from "../views";
import type { TenantView } from "../../tenant/view";
import { Table } from "../table";

/** Each tenant's stored counters. */
export function CallCounters(p: {
  tenants: { tenant: string; callCounters?: TenantView["callCounters"] }[];
}) {
  const counted = p.tenants.filter((t) => t.callCounters !== undefined);
  if (counted.length === 0) return null;
  return (
    <section aria-labelledby="call-counters">
      <h2 id="call-counters">Calls</h2>
      <p class="muted">Kept with each tenant: they survive restarts.</p>
      <Table
        columns={["Tenant", "Upstream calls", "Waited", "Refused", "Counting since"]}
        rows={counted.map((t) => [
          t.tenant,
          t.callCounters?.upstreamCalls ?? 0,
          t.callCounters?.waits ?? 0,
          t.callCounters?.refusals ?? 0,
          when(t.callCounters?.since),
        ])}
      />
    </section>
  );
}
