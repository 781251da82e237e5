/**
 * @module
 * The tenant's payouts, one row each, and the claims: which payout holds which settled order or
 * refund, so no order is paid out twice. All synchronous: callers read, decide and write with no
 * await in between.
 */
import { z } from "zod";
import type { Source } from "../../orders/order";
import { needsStart } from "../intake";
import type { PayoutSource } from "../payout";
import { PayoutRecord, type PayoutState } from "../records";
import { OrderRun } from "../../orders/runs";
import { RecordBook } from "../../kernel/stored-rows";
import { jsonColumn, row, rows } from "../../tenant/sql";

/** Step 12 of `schema.ts`. */
export const PAYOUT_TABLES = [
  `CREATE TABLE IF NOT EXISTS payouts (source TEXT NOT NULL, payout_id TEXT NOT NULL, state TEXT NOT NULL,
    updated_at TEXT NOT NULL, pending INTEGER NOT NULL, start_at INTEGER, data TEXT NOT NULL,
    PRIMARY KEY (source, payout_id))`,
  "CREATE INDEX IF NOT EXISTS payouts_state ON payouts (state, updated_at)",
  "CREATE INDEX IF NOT EXISTS payouts_pending ON payouts (pending, start_at)",
  "CREATE INDEX IF NOT EXISTS payouts_purge ON payouts (pending, updated_at)",
  // refund_id '' is the order's own charge: a primary key cannot hold a null.
  `CREATE TABLE IF NOT EXISTS payout_claims (order_source TEXT NOT NULL, order_id TEXT NOT NULL,
    refund_id TEXT NOT NULL, payout_source TEXT NOT NULL, payout_id TEXT NOT NULL,
    PRIMARY KEY (order_source, order_id, refund_id))`,
  "CREATE INDEX IF NOT EXISTS payout_claims_payout ON payout_claims (payout_source, payout_id)",
];

/** How long a payout is kept after its last change, ms: as order runs are. */
export const PAYOUT_RETENTION_MS = 400 * 86_400_000;
const PURGE_BATCH = 500;
/** How long after it is due a run's start is tried again, ms (the alarm's backstop). */
export const PAYOUT_START_RETRY_MS = 5_000;

const RecordRow = z.object({ data: jsonColumn(PayoutRecord) }).transform((r) => r.data);
const ClaimRow = z.object({ payout_id: z.string() });
const OldestRow = z.object({ oldest: z.string().nullable() });
/** An attempt whose instance exists and has not ended; through the state index. */
const UNDER_WAY =
  "state IN ('received', 'running', 'reversing') AND json_extract(data, '$.started') = 1";
const UnpaidRow = z.object({ data: jsonColumn(OrderRun) }).transform((r) => r.data);
const HeldRow = z
  .object({
    account_no: z.int(),
    provider: z.string().nullable(),
    currency: z.string().nullable(),
    orders: z.int(),
    total: z.int().nullable(),
    due_orders: z.int(),
    due_total: z.int().nullable(),
  })
  .transform((r) => ({
    accountNo: r.account_no,
    provider: r.provider,
    currency: r.currency,
    orders: r.orders,
    total: r.total ?? 0,
    dueOrders: r.due_orders,
    dueTotal: r.due_total ?? 0,
  }));

/**
 * Orders a clearing account holds in one currency (minor units), and of them those due; `provider`
 * null: settled before providers were told apart.
 */
export type ClearingHeld = z.output<typeof HeldRow>;

/** What the clearing accounts hold, and after how many days an order is due. */
export interface Holdings {
  afterDays: number;
  accounts: ClearingHeld[];
}

export class PayoutBook extends RecordBook<PayoutState, PayoutRecord> {
  constructor(sql: SqlStorage) {
    super(sql, {
      table: "payouts",
      id: "payout_id",
      row: RecordRow,
      startRetryMs: PAYOUT_START_RETRY_MS,
    });
  }

  /** Stores a record (validated); one that needs its run started is due in a moment. */
  put(record: PayoutRecord): void {
    const r = PayoutRecord.parse(record);
    this.store(r, r.payoutId, needsStart(r));
  }

  /** The payouts of any source whose id is `id` (a search's). */
  find(id: string): PayoutRecord[] {
    return rows(this.sql, RecordRow, "SELECT data FROM payouts WHERE payout_id = ? LIMIT 5", id);
  }

  /** Payouts whose run may be under way. */
  underway(): PayoutRecord[] {
    return rows(
      this.sql,
      RecordRow,
      "SELECT data FROM payouts WHERE state IN ('running', 'reversing')",
    );
  }

  /** The payout that holds an order (refundId null) or a refund, or null. */
  claimedBy(orderSource: Source, orderId: string, refundId: string | null): string | null {
    return (
      row(
        this.sql,
        ClaimRow,
        "SELECT payout_id FROM payout_claims WHERE order_source = ? AND order_id = ? AND refund_id = ?",
        orderSource,
        orderId,
        refundId ?? "",
      )?.payout_id ?? null
    );
  }

  /** Claims orders and refunds for a payout, replacing its earlier claims. */
  claim(
    payout: { source: PayoutSource; payoutId: string; orderSource: Source },
    claims: { orderId: string; refundId: string | null }[],
  ): void {
    this.release(payout.source, payout.payoutId);
    for (const c of claims)
      this.sql.exec(
        "INSERT OR REPLACE INTO payout_claims (order_source, order_id, refund_id, payout_source, payout_id) VALUES (?, ?, ?, ?, ?)",
        payout.orderSource,
        c.orderId,
        c.refundId ?? "",
        payout.source,
        payout.payoutId,
      );
  }

  release(source: PayoutSource, payoutId: string): void {
    this.sql.exec(
      "DELETE FROM payout_claims WHERE payout_source = ? AND payout_id = ?",
      source,
      payoutId,
    );
  }

  /** Orders settled by `lastDay` to another account than `bankAccount` that no payout holds. */
  unpaid(lastDay: string, bankAccount: number, limit: number): OrderRun[] {
    return rows(
      this.sql,
      UnpaidRow,
      `SELECT data FROM order_runs o WHERE o.settled_on IS NOT NULL AND o.settled_on <= ? AND o.settled_to != ?
        AND NOT EXISTS (SELECT 1 FROM payout_claims c WHERE c.order_source = o.source AND c.order_id = o.order_id AND c.refund_id = '')
        ORDER BY o.settled_on LIMIT ?`,
      lastDay,
      bankAccount,
      limit,
    );
  }

  /**
   * What each clearing account (and currency) holds by the tenant's records: its orders that no
   * payout holds, and of them those settled by `lastDay`, due. Refunds are left out.
   */
  held(lastDay: string, bankAccount: number): ClearingHeld[] {
    return rows(
      this.sql,
      HeldRow,
      `SELECT o.settled_to AS account_no, json_extract(o.data, '$.settlement.provider') AS provider,
        json_extract(o.data, '$.order.currency') AS currency, COUNT(*) AS orders,
        SUM(json_extract(o.data, '$.order.total')) AS total,
        SUM(o.settled_on <= ?) AS due_orders,
        SUM(CASE WHEN o.settled_on <= ? THEN json_extract(o.data, '$.order.total') ELSE 0 END) AS due_total
        FROM order_runs o WHERE o.settled_to IS NOT NULL AND o.settled_to != ?
        AND NOT EXISTS (SELECT 1 FROM payout_claims c WHERE c.order_source = o.source AND c.order_id = o.order_id AND c.refund_id = '')
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      lastDay,
      lastDay,
      bankAccount,
    );
  }

  /** Started attempts under way, unchanged since `before` (ISO), longest silent first. */
  silent(before: string, limit: number): PayoutRecord[] {
    return rows(
      this.sql,
      RecordRow,
      `SELECT data FROM payouts WHERE ${UNDER_WAY} AND updated_at < ? ORDER BY updated_at LIMIT ?`,
      before,
      limit,
    );
  }

  /** When the longest silent attempt under way last changed (epoch ms), or null. */
  oldestLive(): number | null {
    const oldest = row(
      this.sql,
      OldestRow,
      `SELECT MIN(updated_at) AS oldest FROM payouts WHERE ${UNDER_WAY}`,
    )?.oldest;
    return oldest == null ? null : Date.parse(oldest);
  }

  dueAt(): number | null {
    const oldest = row(
      this.sql,
      OldestRow,
      "SELECT MIN(updated_at) AS oldest FROM payouts WHERE pending = 0",
    )?.oldest;
    return oldest == null ? null : Date.parse(oldest) + PAYOUT_RETENTION_MS;
  }

  /** Removes a batch of payouts untouched for the retention, with their claims. */
  purge(now: number): void {
    const cutoff = new Date(now - PAYOUT_RETENTION_MS).toISOString();
    const old = rows(
      this.sql,
      z.object({ source: z.string(), payout_id: z.string() }),
      "SELECT source, payout_id FROM payouts WHERE pending = 0 AND updated_at < ? LIMIT ?",
      cutoff,
      PURGE_BATCH,
    );
    for (const o of old) {
      this.sql.exec(
        "DELETE FROM payout_claims WHERE payout_source = ? AND payout_id = ?",
        o.source,
        o.payout_id,
      );
      this.sql.exec(
        "DELETE FROM payouts WHERE source = ? AND payout_id = ?",
        o.source,
        o.payout_id,
      );
    }
  }

  clear(): void {
    this.sql.exec("DELETE FROM payouts");
    this.sql.exec("DELETE FROM payout_claims");
  }
}
