/**
 * @module
 * The Vipps MobilePay stand-in's storage (`durable/vipps.ts` keeps the API): merchants with their
 * hashed keys and their one ledger's state, access tokens (hashed), what was added to each open
 * date, the rows of each closed date, and the request counters. Bound SQL parameters only.
 */
import type { LedgerState, Pending, VippsRow } from "./ledger";

const TABLES = [
  `CREATE TABLE IF NOT EXISTS merchants (msn TEXT PRIMARY KEY, client_id TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL, subscription_hash TEXT NOT NULL, ledger_id TEXT NOT NULL UNIQUE,
    settlement TEXT NOT NULL, currency TEXT NOT NULL, fee_bp INTEGER NOT NULL,
    balance INTEGER NOT NULL DEFAULT 0, fee_balance INTEGER NOT NULL DEFAULT 0,
    payouts INTEGER NOT NULL DEFAULT 0, last_closed TEXT, closed_dates INTEGER NOT NULL DEFAULT 0,
    surprise_every INTEGER NOT NULL DEFAULT 0)`,
  "CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, msn TEXT NOT NULL, expires_at INTEGER NOT NULL)",
  `CREATE TABLE IF NOT EXISTS pending (seq INTEGER PRIMARY KEY AUTOINCREMENT, ledger_id TEXT NOT NULL,
    date TEXT NOT NULL, data TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS rows (ledger_id TEXT NOT NULL, date TEXT NOT NULL, report TEXT NOT NULL,
    n INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (ledger_id, date, report, n))`,
  "CREATE TABLE IF NOT EXISTS closed (ledger_id TEXT NOT NULL, date TEXT NOT NULL, PRIMARY KEY (ledger_id, date))",
  "CREATE TABLE IF NOT EXISTS captured (ledger_id TEXT NOT NULL, reference TEXT NOT NULL, PRIMARY KEY (ledger_id, reference))",
  "CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
];

export interface Merchant extends LedgerState {
  msn: string;
  clientId: string;
  secretHash: string;
  subscriptionHash: string;
  feeBasisPoints: number;
  lastClosed: string | null;
  /** Dates closed so far, and every how many an entry of a type not documented is added (0: never). */
  closedDates: number;
  surpriseEvery: number;
}

export type Report = "funds" | "fees";

export class VippsStore {
  constructor(private readonly sql: SqlStorage) {
    for (const t of TABLES) this.sql.exec(t);
  }

  addMerchant(m: Merchant): void {
    this.sql.exec(
      `INSERT INTO merchants (msn, client_id, secret_hash, subscription_hash, ledger_id, settlement,
        currency, fee_bp, surprise_every) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      m.msn,
      m.clientId,
      m.secretHash,
      m.subscriptionHash,
      m.ledgerId,
      m.settlement,
      m.currency,
      m.feeBasisPoints,
      m.surpriseEvery,
    );
  }

  merchantBy(column: "msn" | "client_id" | "ledger_id", value: string): Merchant | null {
    const r = this.sql.exec(`SELECT * FROM merchants WHERE ${column} = ?`, value).toArray()[0];
    if (!r) return null;
    return {
      msn: String(r.msn),
      clientId: String(r.client_id),
      secretHash: String(r.secret_hash),
      subscriptionHash: String(r.subscription_hash),
      ledgerId: String(r.ledger_id),
      settlement: r.settlement === "gross" ? "gross" : "net",
      currency: String(r.currency),
      feeBasisPoints: Number(r.fee_bp),
      recipientHandle: `NO:${String(r.msn)}`,
      balance: Number(r.balance),
      feeBalance: Number(r.fee_balance),
      payouts: Number(r.payouts),
      lastClosed: r.last_closed === null ? null : String(r.last_closed),
      closedDates: Number(r.closed_dates),
      surpriseEvery: Number(r.surprise_every),
    };
  }

  addToken(hash: string, msn: string, expiresAt: number): void {
    this.sql.exec("DELETE FROM tokens WHERE expires_at < ?", Date.now());
    this.sql.exec(
      "INSERT INTO tokens (hash, msn, expires_at) VALUES (?, ?, ?)",
      hash,
      msn,
      expiresAt,
    );
  }

  /** The merchant a live token belongs to, or null. */
  tokenMerchant(hash: string, now: number): string | null {
    const r = this.sql
      .exec("SELECT msn FROM tokens WHERE hash = ? AND expires_at > ?", hash, now)
      .toArray()[0];
    return r ? String(r.msn) : null;
  }

  addPending(ledgerId: string, date: string, p: Pending): void {
    if (p.kind === "capture")
      this.sql.exec(
        "INSERT OR IGNORE INTO captured (ledger_id, reference) VALUES (?, ?)",
        ledgerId,
        p.reference,
      );
    this.sql.exec(
      "INSERT INTO pending (ledger_id, date, data) VALUES (?, ?, ?)",
      ledgerId,
      date,
      JSON.stringify(p),
    );
  }

  pending(ledgerId: string, date: string): Pending[] {
    return this.sql
      .exec(
        "SELECT data FROM pending WHERE ledger_id = ? AND date = ? ORDER BY seq",
        ledgerId,
        date,
      )
      .toArray()
      .map((r) => JSON.parse(String(r.data)) as Pending);
  }

  /** Whether the ledger has a capture of `reference` (open or closed). */
  wasCaptured(ledgerId: string, reference: string): boolean {
    return (
      this.sql
        .exec("SELECT 1 FROM captured WHERE ledger_id = ? AND reference = ?", ledgerId, reference)
        .toArray().length > 0
    );
  }

  isClosed(ledgerId: string, date: string): boolean {
    return (
      this.sql
        .exec("SELECT 1 FROM closed WHERE ledger_id = ? AND date = ?", ledgerId, date)
        .toArray().length > 0
    );
  }

  /** Stores a closed date's rows and the ledger's state after it. */
  close(
    m: Merchant,
    date: string,
    rows: Record<Report, VippsRow[]>,
    next: Pick<LedgerState, "balance" | "feeBalance" | "payouts">,
  ): void {
    for (const report of ["funds", "fees"] as const)
      for (const [n, r] of rows[report].entries())
        this.sql.exec(
          "INSERT INTO rows (ledger_id, date, report, n, data) VALUES (?, ?, ?, ?, ?)",
          m.ledgerId,
          date,
          report,
          n,
          JSON.stringify(r),
        );
    this.sql.exec("INSERT INTO closed (ledger_id, date) VALUES (?, ?)", m.ledgerId, date);
    this.sql.exec("DELETE FROM pending WHERE ledger_id = ? AND date = ?", m.ledgerId, date);
    this.sql.exec(
      `UPDATE merchants SET balance = ?, fee_balance = ?, payouts = ?, last_closed = ?,
        closed_dates = closed_dates + 1 WHERE msn = ?`,
      next.balance,
      next.feeBalance,
      next.payouts,
      date,
      m.msn,
    );
  }

  /** Up to `limit` rows of a closed date from position `from`. */
  rows(ledgerId: string, date: string, report: Report, from: number, limit: number): VippsRow[] {
    return this.sql
      .exec(
        "SELECT data FROM rows WHERE ledger_id = ? AND date = ? AND report = ? AND n >= ? ORDER BY n LIMIT ?",
        ledgerId,
        date,
        report,
        from,
        limit,
      )
      .toArray()
      .map((r) => JSON.parse(String(r.data)) as VippsRow);
  }

  bump(name: string): void {
    this.sql.exec(
      `INSERT INTO counters (name, value) VALUES (?, 1)
       ON CONFLICT (name) DO UPDATE SET value = counters.value + 1`,
      name,
    );
  }

  counters(): Record<string, number> {
    return Object.fromEntries(
      this.sql
        .exec("SELECT name, value FROM counters")
        .toArray()
        .map((r) => [String(r.name), Number(r.value)]),
    );
  }

  clear(): void {
    for (const t of ["merchants", "tokens", "pending", "rows", "closed", "captured", "counters"])
      this.sql.exec(`DELETE FROM ${t}`);
  }
}
