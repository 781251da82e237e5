/**
 * @module
 * `Directory`: one for the whole gateway, the list of registered tenant names, so operators can list
 * tenants. It holds names only; everything else about a tenant is in its own `Tenant` object.
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import type { Bindings } from "../lib/config";

/** Bumped when the table changes. */
const SCHEMA_VERSION = "2";

const NameRow = z.object({ name: z.string() });

export class Directory extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    if (sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'").toArray()[0]?.value === SCHEMA_VERSION) return;
    sql.exec("CREATE TABLE IF NOT EXISTS tenants (name TEXT PRIMARY KEY)");
    sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", SCHEMA_VERSION);
  }

  /** Adds a tenant name. */
  add(name: string): void {
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO tenants (name) VALUES (?)", name);
  }

  /** Removes a tenant name. */
  remove(name: string): void {
    this.ctx.storage.sql.exec("DELETE FROM tenants WHERE name = ?", name);
  }

  /** All tenant names, sorted. */
  list(): string[] {
    return this.ctx.storage.sql.exec("SELECT name FROM tenants ORDER BY name").toArray().map((r) => NameRow.parse(r).name);
  }
}
