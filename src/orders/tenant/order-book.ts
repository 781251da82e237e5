/**
 * @module
 * The tenant's order index: one row per shop order (its run record as JSON; state and "has a run to
 * start" as columns), and the webhook deliveries seen per source, kept 7 days, longer than any
 * source retries. All synchronous: callers read, decide and write without an await in between.
 * The alarm purges old rows in batches, through indexes. See docs/design/order-runs.md.
 */
import { z } from "zod";
import type { Source } from "../order";
import { liveRuns, OrderRun, pendingStarts, type RunState } from "../runs";
import { RecordBook } from "../../kernel/stored-rows";
import { jsonColumn, row, rows } from "../../tenant/sql";

/** How long a delivery's event id is remembered, ms. */
const DELIVERY_MEMORY_MS = 7 * 86_400_000;
/** When the alarm retries a start that failed or died with the object, ms after it. */
export const START_RETRY_MS = 5_000;
/** How long a run is kept after its last change, ms: over a year, so a late refund finds it. */
export const RUN_RETENTION_MS = 400 * 86_400_000;
/** Rows one purge deletes per table at most, so an alarm stays short. */
const PURGE_BATCH = 500;

/**
 * The tables as of step 5 of `schema.ts` (change them with a new step); later steps add `start_at`,
 * `settled_on`, `settled_to` and `live` to `order_runs`, with their indexes.
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
const FoundDelivery = z.object({ source: z.string(), seen_at: z.int() });
const RunKeyRow = z.object({ run: z.string() });
const OldestRow = z.object({ run: z.string().nullable(), seen: z.int().nullable() });
const LiveRow = z.object({ oldest: z.string().nullable() });
const ClearingRow = z
  .object({ settled_to: z.int(), provider: z.string().nullable() })
  .transform((r) => ({ accountNo: r.settled_to, provider: r.provider }));

/** The order index (`RecordBook`), with the settlement's day and account as columns for payouts. */
export class OrderBook extends RecordBook<RunState, OrderRun> {
  constructor(sql: SqlStorage) {
    super(sql, { table: "order_runs", id: "order_id", row: RunRow, startRetryMs: START_RETRY_MS });
  }

  /** Stores a record, validated so that one which would not read back is refused here. */
  put(run: OrderRun): void {
    const checked = OrderRun.parse(run);
    this.store(checked, checked.orderId, pendingStarts(checked).length > 0, {
      settled_on: checked.settlement?.date ?? null,
      settled_to: checked.settlement?.accountNo ?? null,
      live: liveRuns(checked).length > 0 ? 1 : 0,
    });
  }

  /**
   * Each account orders were settled to, with whose money (null: from before providers were told
   * apart). A scan of the runs, made only when the operator changes the mapping.
   */
  settledClearing(): { accountNo: number; provider: string | null }[] {
    return rows(
      this.sql,
      ClearingRow,
      "SELECT DISTINCT settled_to, json_extract(data, '$.settlement.provider') AS provider FROM order_runs WHERE settled_to IS NOT NULL",
    );
  }

  /** Records with a run under way, unchanged since `before` (ISO), longest silent first. */
  silent(before: string, limit: number): OrderRun[] {
    return rows(
      this.sql,
      RunRow,
      "SELECT data FROM order_runs WHERE live = 1 AND updated_at < ? ORDER BY updated_at LIMIT ?",
      before,
      limit,
    );
  }

  /** When the longest silent run under way last changed (epoch ms), or null when none is. */
  oldestLive(): number | null {
    const oldest = row(
      this.sql,
      LiveRow,
      "SELECT MIN(updated_at) AS oldest FROM order_runs WHERE live = 1",
    )?.oldest;
    return oldest == null ? null : Date.parse(oldest);
  }

  /** Orders whose own run has not ended, and every order with refunds (the caller checks those). */
  unfinished(): OrderRun[] {
    return rows(
      this.sql,
      RunRow,
      "SELECT data FROM order_runs WHERE state NOT IN ('settled', 'cancelled', 'failed') OR data LIKE ?",
      '%"refunds":[{%',
    );
  }

  /**
   * The runs (`<source>:<order id>`) of paid orders in `state`, reported after `since` (ISO);
   * with `currency`, only orders in it (a settlement voucher's group). Through the state index.
   */
  headed(state: RunState, since: string, currency: string | null): string[] {
    const [filter, params] =
      currency === null
        ? ["", []]
        : [" AND json_extract(data, '$.order.currency') = ?", [currency]];
    return rows(
      this.sql,
      RunKeyRow,
      `SELECT source || ':' || order_id AS run FROM order_runs WHERE state = ? AND updated_at > ? AND json_extract(data, '$.order') IS NOT NULL${filter}`,
      state,
      since,
      ...params,
    ).map((r) => r.run);
  }

  /**
   * Runs named by `q` for a search, newest first, at most `limit`: by order id or number, invoice
   * or customer number, buyer's organization number or e-mail, or (3 characters or more) a part
   * of the buyer's company or name. A scan of the kept runs: the operator's, never a caller's.
   */
  find(q: string, limit: number): OrderRun[] {
    const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const named = q.length >= 3;
    return rows(
      this.sql,
      RunRow,
      `SELECT data FROM order_runs WHERE order_id = ?
         OR json_extract(data, '$.order.number') IN (?, ?)
         OR CAST(json_extract(data, '$.invoiceNo') AS TEXT) = ?
         OR CAST(json_extract(data, '$.customer.number') AS TEXT) = ?
         OR replace(json_extract(data, '$.order.buyer.organizationNumber'), ' ', '') = ?
         OR lower(json_extract(data, '$.order.buyer.email')) = ?
         OR (? AND (lower(json_extract(data, '$.order.buyer.company')) LIKE ? ESCAPE '\\'
           OR lower(coalesce(json_extract(data, '$.order.buyer.firstName'), '') || ' ' ||
             coalesce(json_extract(data, '$.order.buyer.lastName'), '')) LIKE ? ESCAPE '\\'))
       ORDER BY updated_at DESC LIMIT ?`,
      q,
      q,
      `#${q}`,
      q,
      q,
      q.replaceAll(" ", ""),
      q.toLowerCase(),
      named ? 1 : 0,
      like,
      like,
      limit,
    );
  }

  /** A webhook delivery remembered under `eventId`, of any source: when it was seen. */
  findDelivery(eventId: string): { source: string; seenAt: number }[] {
    return rows(
      this.sql,
      FoundDelivery,
      "SELECT source, seen_at FROM webhook_deliveries WHERE event_id = ? LIMIT 5",
      eventId,
    ).map((r) => ({ source: r.source, seenAt: r.seen_at }));
  }

  /** The signed timestamp last accepted for an event id (0: none), or null when the id is new. */
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

  /** When the next purge is due (epoch ms), or null when nothing is purgeable. */
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

  /** Removes a batch of expired runs with nothing left to start, and of old deliveries. */
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
