/**
 * @module
 * The watcher's one row (table `watch`): what is watched, for which books, and when. No row: the
 * tenant is not watched.
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

export type Watch = z.output<typeof Row>;

export class WatchRow {
  constructor(private readonly sql: SqlStorage) {}

  get(): Watch | null {
    return row(this.sql, Row, "SELECT * FROM watch WHERE id = 1");
  }

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

  clear(): void {
    this.sql.exec("DELETE FROM watch");
  }
}
