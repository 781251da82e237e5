/**
 * @module
 * The directory object's SQLite layout as a numbered list of migration steps
 * (`kernel/migrations.ts`), applied in its constructor on every wake. Step 3 is the baseline: the
 * layout of the text version row "3" that came before the list. Step 4 brings `console_revoked`
 * under the list; it was created on every wake outside the version row until then, so the step's
 * `IF NOT EXISTS` finds it on every object that ran that code. Layout: docs/storage.md.
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
      // Rows from before name no client, so nothing can delete their records: counted as used,
      // their clients keep the library's 30 days, and the rows go once out of the pace's window.
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

/**
 * Brings the directory's storage to the last step of `DIRECTORY_MIGRATIONS`. Synchronous: call it
 * from the constructor.
 *
 * @throws MigrationError when a step fails (rolled back; the object's calls fail until it passes)
 */
export function migrate(storage: DurableObjectStorage): void {
  migrateSteps(storage, "Directory", DIRECTORY_MIGRATIONS);
}
