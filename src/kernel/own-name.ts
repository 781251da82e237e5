/**
 * @module
 * The name a per-tenant object was reached by (`kernel/stubs.ts` addresses it by its tenant's name,
 * nothing else), kept in its `meta` table the first time it is seen: an object woken by its alarm
 * is not given the name it was reached by (`ctx.id.name` is then absent), and what it does then
 * (the events object's sweep, the watcher's poll) must name the tenant.
 */
import { parseTenantName, tenantName, type TenantName } from "./stubs";

/**
 * The object's own tenant name, from `ctx.id.name` (and kept) or from what it kept; null when it
 * was never reached by a tenant's name. Needs the `meta` table (`kernel/migrations.ts` makes it).
 */
export function ownName(ctx: DurableObjectState): TenantName | null {
  const sql = ctx.storage.sql;
  const given = parseTenantName(ctx.id.name ?? "");
  if (given.ok) {
    const name = tenantName(given.value.environment, given.value.client);
    sql.exec("INSERT OR IGNORE INTO meta (key, value) VALUES ('tenant', ?)", name);
    return name;
  }
  const kept = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'tenant'").toArray();
  const stored = parseTenantName(kept[0]?.value ?? "");
  return stored.ok ? tenantName(stored.value.environment, stored.value.client) : null;
}
