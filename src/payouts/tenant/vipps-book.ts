/**
 * @module
 * What the tenant has read of its Vipps MobilePay ledgers: per ledger the next date to read and
 * the rows carried since its last payout, per date whether it was closed when read (and what it
 * paid out) or still open (and how often tried), and when the next read is due. Synchronous, so
 * a date's rows and the payouts they make are stored in one stretch.
 */
import { z } from "zod";
import { jsonColumn, row, rows } from "../../tenant/sql";
import { Carried } from "../vipps/rows";

/** Step 19 of `schema.ts`, with `vipps_keys`. */
export const VIPPS_BOOK_TABLES = [
  `CREATE TABLE IF NOT EXISTS vipps_ledgers (ledger_id TEXT PRIMARY KEY, currency TEXT NOT NULL,
    next_date TEXT NOT NULL, carried TEXT NOT NULL, seen_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS vipps_dates (ledger_id TEXT NOT NULL, date TEXT NOT NULL,
    state TEXT NOT NULL, tries INTEGER NOT NULL, first_try_at INTEGER NOT NULL,
    last_try_at INTEGER NOT NULL, funds_rows INTEGER NOT NULL DEFAULT 0,
    payouts TEXT NOT NULL DEFAULT '[]', balance_after INTEGER, fees_invoiced INTEGER NOT NULL DEFAULT 0,
    unknown INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (ledger_id, date))`,
  `CREATE TABLE IF NOT EXISTS vipps_reads (id INTEGER PRIMARY KEY CHECK (id = 1), next_at INTEGER,
    last TEXT)`,
];

export const VippsLedgerRow = z.object({
  ledger_id: z.string(),
  currency: z.string(),
  next_date: z.iso.date(),
  carried: jsonColumn(Carried),
  seen_at: z.int(),
});
export type VippsLedgerRow = z.output<typeof VippsLedgerRow>;

export const VippsDateState = z.enum(["read", "open", "overdue"]);

export const VippsDateRow = z.object({
  ledger_id: z.string(),
  date: z.iso.date(),
  state: VippsDateState,
  tries: z.int(),
  first_try_at: z.int(),
  last_try_at: z.int(),
  funds_rows: z.int(),
  payouts: jsonColumn(z.array(z.string())),
  balance_after: z.int().nullable(),
  fees_invoiced: z.int(),
  unknown: z.int(),
});
export type VippsDateRow = z.output<typeof VippsDateRow>;

/** What the last read did: when, its calls to Vipps, and what stopped it (null: nothing). */
export const LastRead = z.object({
  at: z.int(),
  calls: z.int(),
  datesRead: z.int(),
  payoutsFound: z.int(),
  error: z.string().nullable(),
});
export type LastRead = z.output<typeof LastRead>;

const Reads = z.object({ next_at: z.int().nullable(), last: jsonColumn(LastRead).nullable() });

/** Dates kept per ledger for the console: a year of daily settlements. */
const KEPT_DATES = 400;

export class VippsBook {
  constructor(private readonly sql: SqlStorage) {}

  ledger(ledgerId: string): VippsLedgerRow | null {
    return row(
      this.sql,
      VippsLedgerRow,
      "SELECT * FROM vipps_ledgers WHERE ledger_id = ?",
      ledgerId,
    );
  }

  ledgers(): VippsLedgerRow[] {
    return rows(this.sql, VippsLedgerRow, "SELECT * FROM vipps_ledgers ORDER BY ledger_id");
  }

  putLedger(l: VippsLedgerRow): void {
    this.sql.exec(
      `INSERT OR REPLACE INTO vipps_ledgers (ledger_id, currency, next_date, carried, seen_at)
       VALUES (?, ?, ?, ?, ?)`,
      l.ledger_id,
      l.currency,
      l.next_date,
      JSON.stringify(l.carried),
      l.seen_at,
    );
  }

  date(ledgerId: string, date: string): VippsDateRow | null {
    return row(
      this.sql,
      VippsDateRow,
      "SELECT * FROM vipps_dates WHERE ledger_id = ? AND date = ?",
      ledgerId,
      date,
    );
  }

  /** The newest dates of a ledger first. */
  dates(ledgerId: string, limit: number): VippsDateRow[] {
    return rows(
      this.sql,
      VippsDateRow,
      "SELECT * FROM vipps_dates WHERE ledger_id = ? ORDER BY date DESC LIMIT ?",
      ledgerId,
      limit,
    );
  }

  putDate(d: VippsDateRow): void {
    this.sql.exec(
      `INSERT OR REPLACE INTO vipps_dates (ledger_id, date, state, tries, first_try_at, last_try_at,
        funds_rows, payouts, balance_after, fees_invoiced, unknown) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      d.ledger_id,
      d.date,
      d.state,
      d.tries,
      d.first_try_at,
      d.last_try_at,
      d.funds_rows,
      JSON.stringify(d.payouts),
      d.balance_after,
      d.fees_invoiced,
      d.unknown,
    );
    this.sql.exec(
      `DELETE FROM vipps_dates WHERE ledger_id = ? AND date NOT IN
        (SELECT date FROM vipps_dates WHERE ledger_id = ? ORDER BY date DESC LIMIT ?)`,
      d.ledger_id,
      d.ledger_id,
      KEPT_DATES,
    );
  }

  reads(): { nextAt: number | null; last: LastRead | null } {
    const r = row(this.sql, Reads, "SELECT next_at, last FROM vipps_reads WHERE id = 1");
    return { nextAt: r?.next_at ?? null, last: r?.last ?? null };
  }

  setReads(nextAt: number | null, last: LastRead | null): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO vipps_reads (id, next_at, last) VALUES (1, ?, ?)",
      nextAt,
      last && JSON.stringify(last),
    );
  }

  /** Forgets what was read (the keys' removal keeps it: the payouts it made stay). */
  clear(): void {
    for (const t of ["vipps_ledgers", "vipps_dates", "vipps_reads"])
      this.sql.exec(`DELETE FROM ${t}`);
  }
}
