/**
 * @module
 * Which order a provider's payment paid: a Stripe payment intent (and charge) to the invoice it
 * paid, kept when the order's `invoice.paid` arrived (`OrderDesk`), read when a payout's lines are
 * matched (`PayoutDesk`): Stripe's ledger names the payment, and since API version 2025-03-31 a
 * charge no longer names its invoice. One row per reference; plain (ids, no buyer's data), kept as
 * long as order runs are (400 days after it was written).
 */
import { z } from "zod";
import type { Source } from "../orders/order";
import { row } from "../tenant/sql";

/** Step 13 of `schema.ts`. */
export const PAYMENT_REF_TABLES = [
  `CREATE TABLE IF NOT EXISTS payment_refs (source TEXT NOT NULL, ref TEXT NOT NULL,
    order_id TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (source, ref))`,
  "CREATE INDEX IF NOT EXISTS payment_refs_at ON payment_refs (at)",
];

/** How long a reference is kept, ms: 400 days, as the order runs it links to. */
export const PAYMENT_REF_RETENTION_MS = 400 * 86_400_000;

const OrderRow = z.object({ order_id: z.string() });
const OldestRow = z.object({ at: z.int() });

export class PaymentRefs {
  constructor(private readonly sql: SqlStorage) {}

  /** Links `refs` to `orderId` of `source` (a later order paid with one takes it over). */
  link(source: Source, orderId: string, refs: readonly string[], now: number): void {
    for (const ref of refs)
      this.sql.exec(
        "INSERT OR REPLACE INTO payment_refs (source, ref, order_id, at) VALUES (?, ?, ?, ?)",
        source,
        ref,
        orderId,
        now,
      );
  }

  /** The order of `source` that `ref` paid, or null. */
  orderOf(source: Source, ref: string): string | null {
    return (
      row(
        this.sql,
        OrderRow,
        "SELECT order_id FROM payment_refs WHERE source = ? AND ref = ?",
        source,
        ref,
      )?.order_id ?? null
    );
  }

  /** When the oldest reference outlives its retention (epoch ms), or null. */
  dueAt(): number | null {
    const r = row(this.sql, OldestRow, "SELECT at FROM payment_refs ORDER BY at LIMIT 1");
    return r ? r.at + PAYMENT_REF_RETENTION_MS : null;
  }

  /** Drops the references older than their retention. */
  purge(now: number): void {
    this.sql.exec("DELETE FROM payment_refs WHERE at < ?", now - PAYMENT_REF_RETENTION_MS);
  }

  /** Drops every reference (the tenant is removed). */
  clear(): void {
    this.sql.exec("DELETE FROM payment_refs");
  }
}
