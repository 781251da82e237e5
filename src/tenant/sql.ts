/**
 * @module
 * Reads of the tenant's tables, parsed with zod rather than cast: a row that does not match is a
 * storage fault and throws. Values are always bound parameters, never spliced into the query.
 */
import { z } from "zod";

export function jsonColumn<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .transform((text) => JSON.parse(text) as unknown)
    .pipe(schema);
}

export function rows<T extends z.ZodType>(
  sql: SqlStorage,
  schema: T,
  query: string,
  ...params: SqlStorageValue[]
): z.output<T>[] {
  return sql
    .exec(query, ...params)
    .toArray()
    .map((r) => schema.parse(r));
}

const CountRow = z.object({ n: z.int() });

/** Deletes every row of `table` (a constant, never input) and answers how many there were. */
export function deleteAll(sql: SqlStorage, table: string): number {
  const n = row(sql, CountRow, `SELECT COUNT(*) AS n FROM ${table}`)?.n ?? 0;
  sql.exec(`DELETE FROM ${table}`);
  return n;
}

/** The first row of `query` (a lookup by key) parsed with `schema`, or null when there is none. */
export function row<T extends z.ZodType>(
  sql: SqlStorage,
  schema: T,
  query: string,
  ...params: SqlStorageValue[]
): z.output<T> | null {
  return rows(sql, schema, query, ...params)[0] ?? null;
}
