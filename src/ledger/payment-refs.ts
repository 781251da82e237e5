/**
 * @module Which order a Stripe payment (intent or charge) paid, kept from `invoice.paid` for
 * matching a payout's lines: a charge does not name its invoice. Plain ids, kept 400 days.
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

/** As long as the order runs it links to, ms. */
export const PAYMENT_REF_RETENTION_MS = 400 * 86_400_000;

const OrderRow = z.object({ order_id: z.string() });
const OldestRow = z.object({ at: z.int() });

export class PaymentRefs {
  constructor(private readonly sql: SqlStorage) {}

  /** A later order paid with one of `refs` takes it over. */
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

  /** When the oldest reference outlives its retention, or null. */
  dueAt(): number | null {
    const r = row(this.sql, OldestRow, "SELECT at FROM payment_refs ORDER BY at LIMIT 1");
    return r ? r.at + PAYMENT_REF_RETENTION_MS : null;
  }

  purge(now: number): void {
    this.sql.exec("DELETE FROM payment_refs WHERE at < ?", now - PAYMENT_REF_RETENTION_MS);
  }

  clear(): void {
    this.sql.exec("DELETE FROM payment_refs");
  }
}
