/**
 * @module Helpers of migration steps: table creation, and column changes guarded so a step is safe
 * over storage partly ahead of its version row. See docs/design/storage-and-migrations.md.
 */
import type { Migration } from "./migrations";

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * `name` if a plain lower-case identifier: names cannot be bound, so this keeps them out of SQL.
 * @throws TypeError for anything else
 */
export function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new TypeError(`Not a plain SQL identifier: ${name}`);
  return name;
}

export function hasColumn(sql: SqlStorage, table: string, column: string): boolean {
  return (
    sql
      .exec("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", identifier(table), column)
      .toArray().length > 0
  );
}

/**
 * Adds `column` unless it exists; a `NOT NULL` one needs a constant `DEFAULT` (backfill after).
 * @example addColumn(sql, "order_runs", "start_at", "INTEGER");
 */
export function addColumn(
  sql: SqlStorage,
  table: string,
  column: string,
  definition: string,
): boolean {
  if (hasColumn(sql, table, column)) return false;
  sql.exec(`ALTER TABLE ${identifier(table)} ADD COLUMN ${identifier(column)} ${definition}`);
  return true;
}

/**
 * Renames `from` to `to` when `from` is there and `to` is not (already renamed: nothing to do).
 * @example renameColumn(sql, "order_runs", "pending", "to_start");
 */
export function renameColumn(sql: SqlStorage, table: string, from: string, to: string): boolean {
  if (!hasColumn(sql, table, from) || hasColumn(sql, table, to)) return false;
  sql.exec(
    `ALTER TABLE ${identifier(table)} RENAME COLUMN ${identifier(from)} TO ${identifier(to)}`,
  );
  return true;
}

/**
 * The step `version` running `statements` in order, usually a module's frozen `*_TABLES`.
 * @example createTables(14, "assistant_grants: the OAuth grants", ASSISTANT_GRANT_TABLES);
 */
export function createTables(
  version: number,
  name: string,
  ...statements: readonly (string | readonly string[])[]
): Migration {
  return {
    version,
    name,
    up: (sql) => {
      for (const statement of statements.flat()) sql.exec(statement);
    },
  };
}
