/**
 * @module
 * Helpers of migration steps (`kernel/migrations.ts`): a step that creates a module's tables, and
 * guarded column changes. SQLite's `ADD COLUMN` and `RENAME COLUMN` fail when the column is already
 * there (or already renamed); a guard makes a step safe over storage that is partly ahead of its
 * version row: a table an older build created outside the versioned list, or a test that runs a
 * step again. Table and column names cannot be bound parameters, so they are checked to be plain
 * identifiers before they reach the SQL text.
 */
import type { Migration } from "./migrations";

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * `name`, when it is a plain lower-case identifier (our tables' and columns' only form): names
 * cannot be bound, so this check is what keeps a name spliced into SQL text from being SQL.
 *
 * @throws TypeError for anything else
 */
export function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new TypeError(`Not a plain SQL identifier: ${name}`);
  return name;
}

/**
 * Whether `table` has a column `column`.
 *
 * @example
 * if (!hasColumn(sql, "order_runs", "start_at")) …
 */
export function hasColumn(sql: SqlStorage, table: string, column: string): boolean {
  return (
    sql
      .exec("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", identifier(table), column)
      .toArray().length > 0
  );
}

/**
 * Adds `column` to `table` with its SQL `definition` (type, default, constraints) unless it exists.
 * A `NOT NULL` column needs a constant `DEFAULT` (SQLite's rule for existing rows); backfill
 * computed values with an `UPDATE` after it.
 *
 * @returns whether the column was added
 * @example
 * addColumn(sql, "order_runs", "start_at", "INTEGER");
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
 * Renames `from` to `to` in `table` when `from` is there and `to` is not (already renamed: nothing
 * to do). Indexes and triggers follow the column by themselves.
 *
 * @returns whether the column was renamed
 * @example
 * renameColumn(sql, "order_runs", "pending", "to_start");
 */
export function renameColumn(sql: SqlStorage, table: string, from: string, to: string): boolean {
  if (!hasColumn(sql, table, from) || hasColumn(sql, table, to)) return false;
  sql.exec(
    `ALTER TABLE ${identifier(table)} RENAME COLUMN ${identifier(from)} TO ${identifier(to)}`,
  );
  return true;
}

/**
 * The migration step `version` that runs `statements` in order: the `CREATE … IF NOT EXISTS` lists
 * modules keep of their tables (`*_TABLES`), or single statements. Its SQL is theirs, so a released
 * step stays the same as long as those lists are frozen, as their comments require.
 *
 * @example
 * createTables(14, "assistant_grants: the OAuth grants", ASSISTANT_GRANT_TABLES);
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
