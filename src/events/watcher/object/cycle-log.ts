/**
 * @module
 * The watcher's last cycles (table `cycles`, the latest `KEPT_CYCLES`): when each ran, what it
 * cost, how many changes it found new and the longest of their detection delays, and how it
 * ended. What `GET /events/endpoints` and the console report as the measured delay.
 */
import { z } from "zod";
import { CycleEnd } from "../view";
import { camelRow } from "../../../kernel/stored-rows";
import { row, rows } from "../../../tenant/sql";

/** Cycles kept: enough for the console to show the last ones, bounded. */
const KEPT_CYCLES = 50;

/** How a cycle ended. */
export type CycleOutcome = z.output<typeof CycleEnd>;

const Row = camelRow({
  started_at: z.int(),
  finished_at: z.int(),
  calls: z.int(),
  changes: z.int(),
  delay_ms: z.int().nullable(),
  outcome: CycleEnd,
});

/** One cycle, as stored. */
export type Cycle = z.output<typeof Row>;

/** The last cycles. */
export class CycleLog {
  constructor(private readonly sql: SqlStorage) {}

  /** Adds a cycle, and forgets the oldest beyond `KEPT_CYCLES`. */
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

  /** The last cycle, or null. */
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

  /** The last `n` cycles, newest first. */
  recent(n: number): Cycle[] {
    return rows(this.sql, Row, "SELECT * FROM cycles ORDER BY seq DESC LIMIT ?", n);
  }

  /** Deletes every cycle. */
  clear(): void {
    this.sql.exec("DELETE FROM cycles");
  }
}
