/**
 * @module
 * The tenant object's SQLite schema, created in its constructor on every wake: each module owns its
 * tables' DDL, and one version row makes the work a single read once the layout is current. The
 * statements are additive and safe to repeat. Layout and fields: docs/storage.md.
 */
import { GATEWAY_KEY_TABLES } from "./gateway-keys";
import { KNOWN_ID_TABLES } from "./known-ids";
import { ORDER_BOOK_TABLES } from "./order-book";
import { ORDER_SETTINGS_TABLES } from "./order-settings";
import { REGISTRATION_TABLES } from "./registration";
import { TOKEN_TABLES } from "./token-state";

/** Bumped when a table is added or changed. */
const SCHEMA_VERSION = "4";

const DDL = [...REGISTRATION_TABLES, ...GATEWAY_KEY_TABLES, ...TOKEN_TABLES, ...ORDER_SETTINGS_TABLES, ...ORDER_BOOK_TABLES, ...KNOWN_ID_TABLES];

/** Creates the tables when the stored version is not the current one. Synchronous: call it from the constructor. */
export function migrate(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  const current = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'").toArray()[0]?.value;
  if (current === SCHEMA_VERSION) return;
  for (const statement of DDL) sql.exec(statement);
  sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", SCHEMA_VERSION);
}
