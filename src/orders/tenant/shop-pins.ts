/**
 * @module
 * The shop each source that names its shop (Shopify's `X-Shopify-Shop-Domain`) is bound to, and
 * the last delivery refused for naming another. The shop header is outside the signature and every
 * shop of one Shopify app signs with the app's one secret, so the secret alone cannot tell this
 * tenant's shop from another shop of the app: the binding does.
 *
 * The operator binds the shop with the secret (`webhook-setup.ts`). Before that was required, a
 * delivery could pin it (trust on first use: whichever shop's delivery came first won, and the
 * tenant's own shop was refused after it). Those pins are kept, so live shops keep working, but
 * flagged `first-delivery` until the operator confirms them on the console.
 *
 * A refusal is kept as one row per source (the last one, with a count), never a row per delivery:
 * a shop that keeps sending cannot grow the tenant's storage.
 */
import { z } from "zod";
import type { Source } from "../order";
import { row } from "../../tenant/sql";

/** `webhook_refusals`, as of step 7 of `schema.ts` (change it with a new step). */
/** `webhook_accepted`, as of step 8 of `schema.ts` (change it with a new step). */
export const ACCEPTED_TABLE =
  "CREATE TABLE IF NOT EXISTS webhook_accepted (source TEXT PRIMARY KEY, at INTEGER NOT NULL)";

export const SHOP_REFUSALS_TABLE =
  "CREATE TABLE IF NOT EXISTS webhook_refusals (source TEXT PRIMARY KEY, shop TEXT, reason TEXT NOT NULL, at INTEGER NOT NULL, count INTEGER NOT NULL)";

/** Who bound a source's shop: the operator, or (before binding was required) a first delivery. */
export const BoundBy = z.enum(["operator", "first-delivery"]);
export type BoundBy = z.output<typeof BoundBy>;

/** The shop a source is bound to, and by whom. */
export const ShopBinding = z.object({ shop: z.string(), boundBy: BoundBy });
export type ShopBinding = z.output<typeof ShopBinding>;

/** The last delivery refused for its shop: when (epoch ms), which shop, why, and how many so far. */
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

  /** The shop `source` is bound to, or null when none is. */
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

  /**
   * The operator confirms a pin a first delivery made: it becomes the operator's. Only the shop the
   * operator was shown (compare and set); false when the source is bound to another shop now.
   */
  confirm(source: Source, shop: string): boolean {
    this.sql.exec(
      "UPDATE webhook_shops SET bound_by = 'operator' WHERE source = ? AND shop = ?",
      source,
      shop,
    );
    return this.binding(source)?.shop === shop;
  }

  /**
   * Whether a verified delivery naming `shop` is taken: null when `source` is bound to it, the
   * reason otherwise, recorded as the source's last refusal at `now` (epoch ms). No shop bound
   * takes nothing: a first delivery no longer pins one.
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

  /**
   * Records a refused delivery of `source` (its shop, if it named one, and why) as the source's
   * last refusal at `now`: one row per source, overwritten, so refusals cannot grow the storage.
   * Shop refusals and signature refusals share it: the operator asks "what was refused last".
   */
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

  /** Records `source`'s last accepted (verified and admitted) delivery at `now`: one row a source. */
  accept(source: Source, now: number): void {
    this.sql.exec(
      "INSERT INTO webhook_accepted (source, at) VALUES (?, ?) ON CONFLICT (source) DO UPDATE SET at = excluded.at",
      source,
      now,
    );
  }

  /** When `source`'s last accepted delivery came (epoch ms), or null. */
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

  /** The last delivery of `source` refused for its shop, or null. */
  lastRefusal(source: Source): ShopRefusal | null {
    return row(
      this.sql,
      ShopRefusal,
      "SELECT at, shop, reason, count FROM webhook_refusals WHERE source = ?",
      source,
    );
  }

  /** Removes every binding and refusal (the tenant is removed). */
  clear(): void {
    this.sql.exec("DELETE FROM webhook_shops");
    this.sql.exec("DELETE FROM webhook_refusals");
    this.sql.exec("DELETE FROM webhook_accepted");
  }
}
