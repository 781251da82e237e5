/**
 * @module
 * The tenant's order index: one row per shop order (its whole run record as JSON, with the state
 * and a "has a run to start" flag as columns for the listing and the alarm), and the webhook
 * deliveries seen per source (event id and signed timestamp), kept 7 days: longer than any source
 * retries (Shopify 4 h, Stripe 3 days, Standard Webhooks ≈ 75 h).
 * All synchronous: callers read, decide and write without an await in between.
 *
 * Retention: the object's alarm purges runs nobody has touched for `RUN_RETENTION_MS` (except those
 * still waiting to start) and deliveries past their window, a batch at a time, each through an
 * index that begins with the purge's own condition, so a purge never scans the table.
 */
import { z } from "zod";
import type { Source } from "../order";
import { OrderRun, pendingStarts, type RunState } from "../runs";
import { RecordBook } from "../../kernel/stored-rows";
import { jsonColumn, row, rows } from "../../tenant/sql";

/** How long a delivery's event id is remembered, ms. */
const DELIVERY_MEMORY_MS = 7 * 86_400_000;
/**
 * How long after a run is recorded, or after its Workflow instance could not be created, the alarm
 * tries to start it (again), ms. The intake starts a run at once; this is the backstop for a start
 * that failed or died with the object.
 */
export const START_RETRY_MS = 5_000;
/**
 * How long a run is kept after its last change, ms: 400 days. Over a year, so a late refund (a
 * return, a warranty claim) still finds its order's invoice and a year's runs can be reviewed at
 * the annual closing; the books themselves are the accounting system's, not ours.
 */
export const RUN_RETENTION_MS = 400 * 86_400_000;
/**
 * Rows one purge deletes per table at most, so an alarm stays short; the next alarm takes the rest.
 */
const PURGE_BATCH = 500;

/**
 * The tables as of layout 5 (frozen as step 5 of `schema.ts`: change it with a new step); step 6
 * added `order_runs.start_at` and the index `order_runs_start`, step 12 `settled_on` and
 * `settled_to` (the settlement's day and account, for the payouts' unpaid orders) with the index
 * `order_runs_settled`.
 */
export const ORDER_BOOK_TABLES = [
  `CREATE TABLE IF NOT EXISTS order_runs (source TEXT NOT NULL, order_id TEXT NOT NULL, state TEXT NOT NULL,
    updated_at TEXT NOT NULL, pending INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (source, order_id))`,
  "CREATE INDEX IF NOT EXISTS order_runs_state ON order_runs (state, updated_at)",
  "CREATE INDEX IF NOT EXISTS order_runs_pending ON order_runs (pending)",
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (source TEXT NOT NULL, event_id TEXT NOT NULL, signed_at INTEGER,
    seen_at INTEGER NOT NULL, PRIMARY KEY (source, event_id))`,
  // The purge's: runs by age among those not waiting to start, deliveries by age.
  "CREATE INDEX IF NOT EXISTS order_runs_purge ON order_runs (pending, updated_at)",
  "CREATE INDEX IF NOT EXISTS webhook_deliveries_seen ON webhook_deliveries (seen_at)",
];

const RunRow = z.object({ data: jsonColumn(OrderRun) }).transform((r) => r.data);
const DeliveryRow = z.object({ signed_at: z.int().nullable() });
const OldestRow = z.object({ run: z.string().nullable(), seen: z.int().nullable() });

/**
 * The order index (`RecordBook`: one record per source and `order_id`, its runs started by the
 * alarm), with the settlement's day and account as columns for the payouts' unpaid orders.
 */
export class OrderBook extends RecordBook<RunState, OrderRun> {
  constructor(sql: SqlStorage) {
    super(sql, { table: "order_runs", id: "order_id", row: RunRow, startRetryMs: START_RETRY_MS });
  }

  /**
   * Stores a record (validated: a record that would not read back is refused here, not later), its
   * start due as `RecordBook` keeps it.
   */
  put(run: OrderRun): void {
    const checked = OrderRun.parse(run);
    this.store(checked, checked.orderId, pendingStarts(checked).length > 0, {
      settled_on: checked.settlement?.date ?? null,
      settled_to: checked.settlement?.accountNo ?? null,
    });
  }

  /**
   * Orders whose own run has not reached an end, and every order with refunds (the caller checks
   * theirs).
   */
  unfinished(): OrderRun[] {
    return rows(
      this.sql,
      RunRow,
      "SELECT data FROM order_runs WHERE state NOT IN ('settled', 'cancelled', 'failed') OR data LIKE ?",
      '%"refunds":[{%',
    );
  }

  /**
   * The signed timestamp last accepted for an event id (0 when it had none), or null when the event
   * is new.
   */
  lastDelivery(source: Source, eventId: string): number | null {
    const r = row(
      this.sql,
      DeliveryRow,
      "SELECT signed_at FROM webhook_deliveries WHERE source = ? AND event_id = ?",
      source,
      eventId,
    );
    return r ? (r.signed_at ?? 0) : null;
  }

  /** Remembers a delivery, and forgets those older than the sources' retry windows. */
  remember(source: Source, eventId: string, signedAt: number | null, now: number): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO webhook_deliveries (source, event_id, signed_at, seen_at) VALUES (?, ?, ?, ?)",
      source,
      eventId,
      signedAt,
      now,
    );
    this.sql.exec("DELETE FROM webhook_deliveries WHERE seen_at < ?", now - DELIVERY_MEMORY_MS);
  }

  /**
   * When the next purge is due (epoch ms): the oldest purgeable run's or delivery's end of
   * retention; null when there is none.
   */
  dueAt(): number | null {
    const oldest = row(
      this.sql,
      OldestRow,
      "SELECT (SELECT MIN(updated_at) FROM order_runs WHERE pending = 0) AS run, (SELECT MIN(seen_at) FROM webhook_deliveries) AS seen",
    );
    const due = [
      oldest?.run == null ? null : Date.parse(oldest.run) + RUN_RETENTION_MS,
      oldest?.seen == null ? null : oldest.seen + DELIVERY_MEMORY_MS,
    ].filter((t) => t !== null);
    return due.length > 0 ? Math.min(...due) : null;
  }

  /**
   * Removes, a batch at a time, the runs last changed more than `RUN_RETENTION_MS` before `now`
   * (epoch ms) that have nothing left to start, and the deliveries past their window. Safe to
   * repeat.
   */
  purge(now: number): void {
    const cutoff = new Date(now - RUN_RETENTION_MS).toISOString();
    this.sql.exec(
      "DELETE FROM order_runs WHERE rowid IN (SELECT rowid FROM order_runs WHERE pending = 0 AND updated_at < ? LIMIT ?)",
      cutoff,
      PURGE_BATCH,
    );
    this.sql.exec(
      "DELETE FROM webhook_deliveries WHERE rowid IN (SELECT rowid FROM webhook_deliveries WHERE seen_at < ? LIMIT ?)",
      now - DELIVERY_MEMORY_MS,
      PURGE_BATCH,
    );
  }

  /** Removes every order and delivery. */
  clear(): void {
    this.sql.exec("DELETE FROM order_runs");
    this.sql.exec("DELETE FROM webhook_deliveries");
  }
}
