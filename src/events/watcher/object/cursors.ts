/**
 * @module
 * Where each poll stands (table `cursors`), written after its events are recorded, so a watcher
 * cut short mid-cycle reads those rows again and skips none. See docs/design/events.md.
 */
import { z } from "zod";
import type { PlannedPoll, PollMode, PollName } from "../polls";
import type { PollCursor } from "../times";
import { jsonColumn, row, rows } from "../../../tenant/sql";

const Resume = z.object({ since: z.int(), page: z.int(), from: z.int() }).nullable();
const Row = z.object({
  poll: z.string(),
  mode: z.string(),
  floor: z.int(),
  seen: z.int().nullable(),
  resume: jsonColumn(Resume).nullable(),
});

export class Cursors {
  constructor(private readonly sql: SqlStorage) {}

  get(poll: PollName): PollCursor | null {
    const r = row(this.sql, Row, "SELECT * FROM cursors WHERE poll = ?", poll);
    return r && { floor: r.floor, seen: r.seen, resume: r.resume ?? null };
  }

  /** Keeps a cursor for each of `planned` (a new one starts at `now`) and drops the others. */
  plan(planned: readonly PlannedPoll[], now: number): void {
    const keep = new Set<string>(planned.map((p) => p.poll));
    for (const r of rows(this.sql, Row, "SELECT * FROM cursors"))
      if (!keep.has(r.poll)) this.sql.exec("DELETE FROM cursors WHERE poll = ?", r.poll);
    for (const p of planned)
      this.sql.exec(
        `INSERT INTO cursors (poll, mode, floor, seen, resume, updated_at) VALUES (?, ?, ?, NULL, NULL, ?)
         ON CONFLICT(poll) DO UPDATE SET mode = excluded.mode`,
        p.poll,
        p.mode satisfies PollMode,
        now,
        now,
      );
  }

  /** When `poll`'s cursor was last stored (epoch ms), or null when it is not watched. */
  storedAt(poll: PollName): number | null {
    const r = row(
      this.sql,
      z.object({ updated_at: z.int() }),
      "SELECT updated_at FROM cursors WHERE poll = ?",
      poll,
    );
    return r?.updated_at ?? null;
  }

  put(poll: PollName, c: PollCursor, now: number): void {
    this.sql.exec(
      "UPDATE cursors SET seen = ?, resume = ?, updated_at = ? WHERE poll = ?",
      c.seen,
      c.resume ? JSON.stringify(c.resume) : null,
      now,
      poll,
    );
  }

  /** Every poll starts afresh at `now` (other books: nothing of the old ones is announced). */
  restart(now: number): void {
    this.sql.exec(
      "UPDATE cursors SET floor = ?, seen = NULL, resume = NULL, updated_at = ?",
      now,
      now,
    );
  }

  clear(): void {
    this.sql.exec("DELETE FROM cursors");
  }
}
