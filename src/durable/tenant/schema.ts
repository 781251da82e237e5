/**
 * @module
 * The tenant object's SQLite schema, created in its constructor on every wake: each module owns its
 * tables' DDL, and one version row makes the work a single read once the layout is current. The
 * statements are additive and safe to repeat. Layout and fields: docs/storage.md.
 */
import { CODE_ID_TABLES } from "./code-ids";
import { GATEWAY_KEY_TABLES } from "./gateway-keys";
import { IDEMPOTENCY_TABLES } from "./idempotency-keys";
import { KNOWN_ID_TABLES } from "./known-ids";
import { ORDER_BOOK_TABLES } from "./order-book";
import { ORDER_SETTINGS_TABLES } from "./order-settings";
import { REFERENCE_CACHE_TABLES } from "./reference-cache";
import { REGISTRATION_TABLES } from "./registration";
import { TOKEN_TABLES } from "./token-state";

/** Bumped when a table is added or changed. */
const SCHEMA_VERSION = "5";

const DDL = [
  ...REGISTRATION_TABLES,
  ...GATEWAY_KEY_TABLES,
  ...TOKEN_TABLES,
  ...ORDER_SETTINGS_TABLES,
  ...ORDER_BOOK_TABLES,
  ...KNOWN_ID_TABLES,
  ...CODE_ID_TABLES,
  ...IDEMPOTENCY_TABLES,
  ...REFERENCE_CACHE_TABLES,
];

/**
 * Creates the tables when the stored version is not the current one. Synchronous: call it from the
 * constructor.
 */
export function migrate(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  const current = sql
    .exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'")
    .toArray()[0]?.value;
  if (current === SCHEMA_VERSION) return;
  for (const statement of DDL) sql.exec(statement);
  sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", SCHEMA_VERSION);
}
