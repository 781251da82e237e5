/**
 * @module
 * Guarded column changes for migration steps (`kernel/migrations.ts`). SQLite's `ADD COLUMN` and
 * `RENAME COLUMN` fail when the column is already there (or already renamed); a guard makes a step
 * safe over storage that is partly ahead of its version row: a table an older build created outside
 * the versioned list, or a test that runs a step again. Table and column names cannot be bound
 * parameters, so they are checked to be plain identifiers before they reach the SQL text.
 */

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** `name`, when it is a plain lower-case identifier (our tables' and columns' only form). */
function identifier(name: string): string {
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
