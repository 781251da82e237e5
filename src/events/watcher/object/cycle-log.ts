/**
 * @module
 * The watcher's last cycles (table `cycles`): cost, changes found, the longest detection delay.
 */
import { z } from "zod";
import { CycleEnd } from "../view";
import { camelRow } from "../../../kernel/stored-rows";
import { row, rows } from "../../../tenant/sql";

const KEPT_CYCLES = 50;

export type CycleOutcome = z.output<typeof CycleEnd>;

const Row = camelRow({
  started_at: z.int(),
  finished_at: z.int(),
  calls: z.int(),
  changes: z.int(),
  delay_ms: z.int().nullable(),
  outcome: CycleEnd,
});

export type Cycle = z.output<typeof Row>;

export class CycleLog {
  constructor(private readonly sql: SqlStorage) {}

  add(c: Cycle): void {
    this.sql.exec(
      `INSERT INTO cycles (started_at, finished_at, calls, changes, delay_ms, outcome)
       VALUES (?, ?, ?, ?, ?, ?)`,
      c.startedAt,
      c.finishedAt,
      c.calls,
      c.changes,
      c.delayMs,
      c.outcome,
    );
    this.sql.exec("DELETE FROM cycles WHERE seq <= (SELECT MAX(seq) FROM cycles) - ?", KEPT_CYCLES);
  }

  last(): Cycle | null {
    return row(this.sql, Row, "SELECT * FROM cycles ORDER BY seq DESC LIMIT 1");
  }

  /** The last cycle that found a change (its delay measured), or null. */
  lastFound(): Cycle | null {
    return row(
      this.sql,
      Row,
      "SELECT * FROM cycles WHERE delay_ms IS NOT NULL ORDER BY seq DESC LIMIT 1",
    );
  }

  recent(n: number): Cycle[] {
    return rows(this.sql, Row, "SELECT * FROM cycles ORDER BY seq DESC LIMIT ?", n);
  }

  clear(): void {
    this.sql.exec("DELETE FROM cycles");
  }
}
