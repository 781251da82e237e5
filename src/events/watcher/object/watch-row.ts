/**
 * @module
 * The watcher's one row (table `watch`): the types the tenant's enabled endpoints take, the books
 * the cursors belong to, when watching began, when the tenant was last active, its cycle and when
 * the next one is due. No row: the tenant is not watched.
 */
import { z } from "zod";
import { camelRow } from "../../../kernel/stored-rows";
import { jsonColumn, row } from "../../../tenant/sql";

const Row = camelRow({
  types: jsonColumn(z.array(z.string())),
  books: z.string().nullable(),
  since: z.int(),
  active_at: z.int().nullable(),
  cycle_ms: z.int(),
  next_at: z.int().nullable(),
});

/** What is watched, as stored. */
export type Watch = z.output<typeof Row>;

/** The `watch` row. */
export class WatchRow {
  constructor(private readonly sql: SqlStorage) {}

  /** The row, or null when the tenant is not watched. */
  get(): Watch | null {
    return row(this.sql, Row, "SELECT * FROM watch WHERE id = 1");
  }

  /** Stores `w`. */
  save(w: Watch): void {
    this.sql.exec(
      `INSERT OR REPLACE INTO watch (id, types, books, since, active_at, cycle_ms, next_at)
       VALUES (1, ?, ?, ?, ?, ?, ?)`,
      JSON.stringify(w.types),
      w.books,
      w.since,
      w.activeAt,
      w.cycleMs,
      w.nextAt,
    );
  }

  /** Deletes the row: nothing is watched. */
  clear(): void {
    this.sql.exec("DELETE FROM watch");
  }
}
