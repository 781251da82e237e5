/**
 * @module
 * What the tenant's order runs learned about the client's books: the customer each buyer turned
 * out to be (filed under a hash of what decided the match), and the products with their sales
 * accounts. Scoped to the registration, emptied when the client key is replaced, and trusted for
 * `KNOWN_FOR_MS` after the API last showed an id. See docs/design/order-runs.md.
 */
import { z } from "zod";
import { KnownCustomer, KnownProduct, type Known, type KnownAsk, type Learned } from "../port";
import type { OrderSettings } from "./order-settings";
import { deleteAll, jsonColumn, row, rows } from "../../tenant/sql";

/** How long a remembered id is used without asking the API again, ms: a day. */
export const KNOWN_FOR_MS = 24 * 60 * 60_000;

/** The tables as of step 5 of `schema.ts` (change them with a new step); `seen_at` is epoch ms. */
export const KNOWN_ID_TABLES = [
  "CREATE TABLE IF NOT EXISTS known_customers (registration TEXT NOT NULL, buyer TEXT NOT NULL, customer_id INTEGER NOT NULL, data TEXT NOT NULL, seen_at INTEGER NOT NULL, PRIMARY KEY (registration, buyer))",
  "CREATE INDEX IF NOT EXISTS known_customers_seen ON known_customers (seen_at)",
  "CREATE TABLE IF NOT EXISTS known_products (registration TEXT NOT NULL, code TEXT NOT NULL, sales_account INTEGER, seen_at INTEGER NOT NULL, PRIMARY KEY (registration, code))",
  "CREATE INDEX IF NOT EXISTS known_products_seen ON known_products (seen_at)",
];

const CustomerRow = z.object({ data: jsonColumn(KnownCustomer) }).transform((r) => r.data);
const ProductRow = z
  .object({ code: z.string(), sales_account: z.int().nullable() })
  .transform((r): KnownProduct => ({ code: r.code, salesAccount: r.sales_account }));

/** Customers and products here; settlement ids (which never expire) in `OrderSettings`. */
export class KnownIds {
  constructor(
    private readonly sql: SqlStorage,
    private readonly settings: OrderSettings,
  ) {}

  /** What `ask` names that `registration`'s runs learned and is still trusted at `now`. */
  recall(registration: string, ask: KnownAsk, now: number): Known {
    const since = now - KNOWN_FOR_MS;
    const customer =
      ask.buyer === undefined
        ? null
        : row(
            this.sql,
            CustomerRow,
            "SELECT data FROM known_customers WHERE registration = ? AND buyer = ? AND seen_at > ?",
            registration,
            ask.buyer,
            since,
          );
    // The codes go in as one bound JSON array (json_each), never spliced into the query.
    const products = ask.codes?.length
      ? rows(
          this.sql,
          ProductRow,
          "SELECT code, sales_account FROM known_products WHERE registration = ? AND seen_at > ? AND code IN (SELECT value FROM json_each(?))",
          registration,
          since,
          JSON.stringify(ask.codes),
        )
      : [];
    const settlement =
      ask.settlementAccount === undefined
        ? null
        : this.settings.settlementIds(ask.settlementAccount);
    return { customer, products, settlement };
  }

  /** Forgets what is gone and what expired, then remembers what was found (seen at `now`). */
  learn(registration: string, l: Learned, now: number): void {
    for (const table of ["known_customers", "known_products"])
      this.sql.exec(`DELETE FROM ${table} WHERE seen_at <= ?`, now - KNOWN_FOR_MS);
    if (l.gone?.customerId !== undefined)
      this.sql.exec(
        "DELETE FROM known_customers WHERE registration = ? AND customer_id = ?",
        registration,
        l.gone.customerId,
      );
    if (l.gone?.codes?.length)
      this.sql.exec(
        "DELETE FROM known_products WHERE registration = ? AND code IN (SELECT value FROM json_each(?))",
        registration,
        JSON.stringify(l.gone.codes),
      );
    if (l.customer) {
      const c = KnownCustomer.parse(l.customer.known);
      this.sql.exec(
        "INSERT OR REPLACE INTO known_customers (registration, buyer, customer_id, data, seen_at) VALUES (?, ?, ?, ?, ?)",
        registration,
        l.customer.buyer,
        c.id,
        JSON.stringify(c),
        now,
      );
    }
    if (l.settlement) this.settings.rememberSettlementIds(l.settlement.accountNo, l.settlement.ids);
    for (const p of l.products ?? []) {
      const { code, salesAccount } = KnownProduct.parse(p);
      this.sql.exec(
        "INSERT OR REPLACE INTO known_products (registration, code, sales_account, seen_at) VALUES (?, ?, ?, ?)",
        registration,
        code,
        salesAccount,
        now,
      );
    }
  }

  /** Forgets every customer and product (tenant removed, client key replaced); answers counts. */
  clear(): { customers: number; products: number } {
    return {
      customers: deleteAll(this.sql, "known_customers"),
      products: deleteAll(this.sql, "known_products"),
    };
  }
}
