/**
 * @module The tenant name a per-tenant object was reached by, kept in `meta`: woken by its alarm,
 * an object has no `ctx.id.name`, yet must still name the tenant.
 */
import { parseTenantName, tenantName, type TenantName } from "./stubs";

/** The object's own tenant name, given or kept; null if never reached by one. Needs `meta`. */
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
