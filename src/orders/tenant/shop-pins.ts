/**
 * @module
 * The shop each source that names its shop (Shopify) is bound to: every shop of one app signs with
 * the same secret, so the binding, not the secret, tells this tenant's shop. The operator binds it
 * with the secret (`webhook-setup.ts`); a pin made by a first delivery is kept, flagged
 * `first-delivery`, until the operator confirms it. Also the last accepted and the last refused
 * delivery, one row per source, so deliveries cannot grow the storage. See docs/orders.md.
 */
import { z } from "zod";
import type { Source } from "../order";
import { row } from "../../tenant/sql";

/** `webhook_accepted`, as of step 8 of `schema.ts` (change it with a new step). */
export const ACCEPTED_TABLE =
  "CREATE TABLE IF NOT EXISTS webhook_accepted (source TEXT PRIMARY KEY, at INTEGER NOT NULL)";

/** `webhook_refusals`, as of step 7 of `schema.ts` (change it with a new step). */
export const SHOP_REFUSALS_TABLE =
  "CREATE TABLE IF NOT EXISTS webhook_refusals (source TEXT PRIMARY KEY, shop TEXT, reason TEXT NOT NULL, at INTEGER NOT NULL, count INTEGER NOT NULL)";

/** Who bound a source's shop: the operator, or a first delivery (no longer made). */
export const BoundBy = z.enum(["operator", "first-delivery"]);
export type BoundBy = z.output<typeof BoundBy>;

export const ShopBinding = z.object({ shop: z.string(), boundBy: BoundBy });
export type ShopBinding = z.output<typeof ShopBinding>;

/** The last refused delivery: when (epoch ms), which shop, why, and how many so far. */
export const ShopRefusal = z.object({
  at: z.int(),
  shop: z.string().nullable(),
  reason: z.string(),
  count: z.int(),
});
export type ShopRefusal = z.output<typeof ShopRefusal>;

const BindingRow = z
  .object({ shop: z.string(), bound_by: BoundBy })
  .transform((r): ShopBinding => ({ shop: r.shop, boundBy: r.bound_by }));

export class ShopPins {
  constructor(private readonly sql: SqlStorage) {}

  binding(source: Source): ShopBinding | null {
    return row(
      this.sql,
      BindingRow,
      "SELECT shop, bound_by FROM webhook_shops WHERE source = ?",
      source,
    );
  }

  /** Binds `source` to `shop` on the operator's word, replacing any earlier binding. */
  bind(source: Source, shop: string): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO webhook_shops (source, shop, bound_by) VALUES (?, ?, 'operator')",
      source,
      shop,
    );
  }

  /** Makes a first delivery's pin of `shop` the operator's; false when bound to another now. */
  confirm(source: Source, shop: string): boolean {
    this.sql.exec(
      "UPDATE webhook_shops SET bound_by = 'operator' WHERE source = ? AND shop = ?",
      source,
      shop,
    );
    return this.binding(source)?.shop === shop;
  }

  /**
   * Null when a verified delivery naming `shop` is taken (`source` is bound to it); otherwise the
   * reason, recorded as the last refusal. With no shop bound, nothing is taken.
   */
  admit(source: Source, shop: string, now: number): string | null {
    const bound = this.binding(source);
    if (bound?.shop === shop) return null;
    const reason = bound
      ? `the delivery names shop ${shop}; this tenant is bound to ${bound.shop}`
      : `the delivery names shop ${shop}; no shop is bound yet (set the secret with its shop domain)`;
    this.refuse(source, shop, reason, now);
    return reason;
  }

  /** Records a refused delivery (shop or signature) as the source's last refusal, counted. */
  refuse(source: Source, shop: string | null, reason: string, now: number): void {
    this.sql.exec(
      `INSERT INTO webhook_refusals (source, shop, reason, at, count) VALUES (?, ?, ?, ?, 1)
       ON CONFLICT (source) DO UPDATE SET shop = excluded.shop, reason = excluded.reason,
         at = excluded.at, count = webhook_refusals.count + 1`,
      source,
      shop,
      reason,
      now,
    );
  }

  /** Records `source`'s last accepted (verified and admitted) delivery at `now`. */
  accept(source: Source, now: number): void {
    this.sql.exec(
      "INSERT INTO webhook_accepted (source, at) VALUES (?, ?) ON CONFLICT (source) DO UPDATE SET at = excluded.at",
      source,
      now,
    );
  }

  lastAccepted(source: Source): number | null {
    return (
      row(
        this.sql,
        z.object({ at: z.int() }),
        "SELECT at FROM webhook_accepted WHERE source = ?",
        source,
      )?.at ?? null
    );
  }

  /** The last refused delivery of `source`, or null. */
  lastRefusal(source: Source): ShopRefusal | null {
    return row(
      this.sql,
      ShopRefusal,
      "SELECT at, shop, reason, count FROM webhook_refusals WHERE source = ?",
      source,
    );
  }

  /** Removes every binding and record (the tenant is removed). */
  clear(): void {
    this.sql.exec("DELETE FROM webhook_shops");
    this.sql.exec("DELETE FROM webhook_refusals");
    this.sql.exec("DELETE FROM webhook_accepted");
  }
}
