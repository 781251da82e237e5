/**
 * @module
 * The directory object's SQLite layout as numbered migration steps (`kernel/migrations.ts`),
 * applied in its constructor on every wake. Layout: docs/storage.md.
 */
import { addColumn, createTables } from "../kernel/columns";
import { migrate as migrateSteps, type Migration } from "../kernel/migrations";
import { OAUTH_REGISTRATIONS_TABLES } from "../assistants/oauth/directory-registrations";
import { ONBOARDING_STATES_TABLE } from "../onboarding/directory-states";
import { SHOP_CLAIMS_TABLES } from "../orders/directory-shop-claims";

/** The directory's layout, step by step. Add a step at the end; never edit a released one. */
export const DIRECTORY_MIGRATIONS: readonly Migration[] = [
  createTables(
    3,
    "baseline: the layout of schema version 3",
    "CREATE TABLE IF NOT EXISTS tenants (name TEXT PRIMARY KEY)",
    ONBOARDING_STATES_TABLE,
  ),
  createTables(
    4,
    "console_revoked: signed-out console sessions, under the version row",
    "CREATE TABLE IF NOT EXISTS console_revoked (id TEXT PRIMARY KEY, until INTEGER NOT NULL)",
  ),
  createTables(
    5,
    "shop_claims: which tenant holds which webhook secret (its SHA-256) on which shop",
    SHOP_CLAIMS_TABLES,
  ),
  createTables(
    6,
    "oauth_registrations: the caps of OAuth dynamic client registration",
    OAUTH_REGISTRATIONS_TABLES,
  ),
  {
    version: 7,
    name: "oauth_registrations: client_id, address and used_at; unused registrations expire in hours",
    up: (sql) => {
      addColumn(sql, "oauth_registrations", "client_id", "TEXT");
      addColumn(sql, "oauth_registrations", "address", "TEXT");
      addColumn(sql, "oauth_registrations", "used_at", "INTEGER");
      // Older rows name no client, so nothing can delete their records: counted as used.
      sql.exec("UPDATE oauth_registrations SET used_at = at WHERE used_at IS NULL");
      sql.exec(
        "CREATE INDEX IF NOT EXISTS oauth_registrations_client ON oauth_registrations (client_id)",
      );
      sql.exec(
        "CREATE INDEX IF NOT EXISTS oauth_registrations_address ON oauth_registrations (address, at)",
      );
    },
  },
];

/** @throws MigrationError when a step fails (rolled back; calls fail until it passes) */
export function migrate(storage: DurableObjectStorage): void {
  migrateSteps(storage, "Directory", DIRECTORY_MIGRATIONS);
}
