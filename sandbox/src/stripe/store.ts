/**
 * @module
 * The Stripe stand-in's storage (`durable/stripe.ts` keeps the API): accounts, Stripe objects as
 * JSON, balance transactions in the order they were made (with the payout that took each), and
 * the request counters. Bound SQL parameters only.
 */
import { balanceTransaction, type StripeObject } from "./objects";

const TABLES = [
  "CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, currency TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS objects (id TEXT PRIMARY KEY, account TEXT NOT NULL, data TEXT NOT NULL)",
  `CREATE TABLE IF NOT EXISTS txns (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
    account TEXT NOT NULL, payout TEXT, data TEXT NOT NULL)`,
  "CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
];

/** A balance transaction to record (`objects.ts`'s `balanceTransaction` shapes it). */
export type TxnInput = Parameters<typeof balanceTransaction>[0];

export class StripeStore {
  constructor(private readonly sql: SqlStorage) {
    for (const t of TABLES) this.sql.exec(t);
  }

  /** Adds an account with its key's hash. */
  addAccount(id: string, keyHash: string, currency: string): void {
    this.sql.exec(
      "INSERT INTO accounts (id, key_hash, currency) VALUES (?, ?, ?)",
      id,
      keyHash,
      currency,
    );
  }

  /** The account whose key hashes to `keyHash`, or null. */
  accountOf(keyHash: string): string | null {
    const r = this.sql.exec("SELECT id FROM accounts WHERE key_hash = ?", keyHash).toArray()[0];
    return r ? String(r.id) : null;
  }

  /** The account's currency, or null when there is no such account. */
  currency(account: string): string | null {
    const r = this.sql.exec("SELECT currency FROM accounts WHERE id = ?", account).toArray()[0];
    return r ? String(r.currency) : null;
  }

  /** The account's object `id`, or null. */
  get(account: string, id: string): StripeObject | null {
    const r = this.sql
      .exec("SELECT data FROM objects WHERE account = ? AND id = ?", account, id)
      .toArray()[0];
    return r ? (JSON.parse(String(r.data)) as StripeObject) : null;
  }

  /** Stores (or replaces) an object of the account. */
  put(account: string, o: StripeObject): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO objects (id, account, data) VALUES (?, ?, ?)",
      String(o.id),
      account,
      JSON.stringify(o),
    );
  }

  /** Records a balance transaction, taken by payout `paidOut` (null: not yet paid out). */
  txn(account: string, t: TxnInput, paidOut: string | null = null): void {
    this.sql.exec(
      "INSERT INTO txns (id, account, payout, data) VALUES (?, ?, ?, ?)",
      t.id,
      account,
      paidOut,
      JSON.stringify(balanceTransaction(t)),
    );
  }

  /** The account's transactions no payout has taken: their ids and nets. */
  unpaid(account: string): { id: string; net: number }[] {
    return this.sql
      .exec("SELECT id, data FROM txns WHERE account = ? AND payout IS NULL", account)
      .toArray()
      .map((r) => ({
        id: String(r.id),
        net: Number((JSON.parse(String(r.data)) as StripeObject).net),
      }));
  }

  /** Marks transaction `id` as taken by `payout`. */
  payOut(id: string, payout: string): void {
    this.sql.exec("UPDATE txns SET payout = ? WHERE id = ?", payout, id);
  }

  /** The position of the account's transaction `id` in the list, or null. */
  seqOf(account: string, id: string): number | null {
    const r = this.sql
      .exec("SELECT seq FROM txns WHERE account = ? AND id = ?", account, id)
      .toArray()[0];
    return r ? Number(r.seq) : null;
  }

  /** Up to `limit` of the account's transactions before `before`, newest first; of one payout. */
  list(account: string, before: number, limit: number, payout: string | null): StripeObject[] {
    return this.sql
      .exec(
        `SELECT data FROM txns WHERE account = ? AND seq < ? ${payout === null ? "" : "AND payout = ?"}
         ORDER BY seq DESC LIMIT ?`,
        ...(payout === null ? [account, before, limit] : [account, before, payout, limit]),
      )
      .toArray()
      .map((r) => JSON.parse(String(r.data)) as StripeObject);
  }

  /** Adds one to counter `name`. */
  bump(name: string): void {
    this.sql.exec(
      `INSERT INTO counters (name, value) VALUES (?, 1)
       ON CONFLICT (name) DO UPDATE SET value = counters.value + 1`,
      name,
    );
  }

  /** Every counter by name. */
  counters(): { name: string; value: number }[] {
    return this.sql
      .exec("SELECT name, value FROM counters")
      .toArray()
      .map((r) => ({ name: String(r.name), value: Number(r.value) }));
  }

  /** Forgets every account, object, transaction and counter. */
  clear(): void {
    for (const t of ["accounts", "objects", "txns", "counters"]) this.sql.exec(`DELETE FROM ${t}`);
  }
}
