/**
 * @module
 * The Vipps MobilePay side of a tenant's object: with the merchant's keys set, it reads each
 * ledger's dates in order, each closed date once, and hands every payout it finds to the payout
 * desk, which matches and books it as any payout. It reads ten minutes after the keys are set
 * (or at once on the operator's word), then every six hours; a date still open is tried again
 * hourly, daily once it is four days late (shown `overdue`). One read at a time; each date's rows,
 * the payouts they make and the ledger's next date are stored in one transaction, so a crash loses
 * at most the date being read, which is read again. See docs/payouts.md.
 */
import { readConfig, type Bindings } from "../../kernel/config";
import { log } from "../../kernel/log";
import type { RunOwner } from "../../orders/tenant/order-desk";
import type { Payout } from "../payout";
import { vippsClient } from "../vipps/client";
import { readDateRows, readLedgers } from "../vipps/read";
import { NOTHING_CARRIED, readDate, type DateRead } from "../vipps/rows";
import type { PayoutDesk } from "./payout-desk";
import { VippsBook, type LastRead, type VippsLedgerRow } from "./vipps-book";
import type { VippsKeyStore, VippsSettings } from "./vipps-keys";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** An open date is tried again this often, until it is this late (then once a day). */
const OPEN_RETRY_MS = HOUR;
const OVERDUE_AFTER_MS = 4 * DAY;
/** After a failure: Vipps unavailable, or refusing the keys (set new ones to read sooner). */
const UNAVAILABLE_RETRY_MS = 15 * 60_000;
const REFUSED_RETRY_MS = DAY;
/** Dates one read takes per ledger (a month); the next read follows at once. */
export const MAX_DATES_PER_READ = 31;
/** Ledgers read (one per currency of the sales unit). */
const MAX_LEDGERS = 10;
/** Reads when every date up to yesterday is read: dates close overnight, at an hour not known. */
const CAUGHT_UP_RETRY_MS = 6 * HOUR;
/** The first read after keys are set: time to set them right first. */
const FIRST_READ_AFTER_MS = 10 * 60_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const nextDay = (date: string) => dayOf(Date.parse(date) + DAY);

export class VippsDesk {
  readonly book: VippsBook;
  #reading: Promise<LastRead> | null = null;

  constructor(
    sql: SqlStorage,
    private readonly env: Bindings,
    private readonly keys: VippsKeyStore,
    private readonly payouts: PayoutDesk,
    private readonly transact: <T>(fn: () => T) => T,
  ) {
    this.book = new VippsBook(sql);
  }

  /** When the next read is due; null without keys. */
  dueAt(): number | null {
    return this.keys.settings() === null ? null : this.book.reads().nextAt;
  }

  async runDue(now: number, owner: RunOwner): Promise<void> {
    const due = this.dueAt();
    if (due !== null && due <= now) await this.read(owner, now);
  }

  /** Reads every date due now; a read under way is joined, not doubled. */
  read(owner: RunOwner, now: number): Promise<LastRead> {
    this.#reading ??= this.#read(owner, now).finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  /**
   * New keys: read soon, from `since` where a ledger was read past it. A date read again finds
   * the payouts it found before, which are not taken twice.
   */
  keysChanged(now: number, since: string): void {
    this.transact(() => {
      for (const l of this.book.ledgers())
        if (l.next_date > since)
          this.book.putLedger({ ...l, next_date: since, carried: NOTHING_CARRIED });
      this.book.setReads(now + FIRST_READ_AFTER_MS, this.book.reads().last);
    });
  }

  async #read(owner: RunOwner, now: number): Promise<LastRead> {
    const last: LastRead = { at: now, calls: 0, datesRead: 0, payoutsFound: 0, error: null };
    const finish = (nextAt: number | null, error: string | null) => {
      const done = { ...last, error };
      this.book.setReads(nextAt, done);
      if (error) log.warn("vipps-read-failed", { tenant: owner.tenant, error });
      return done;
    };
    if (readConfig(this.env).vippsApiBaseUrl === null)
      return finish(
        now + DAY,
        "VIPPS_API_BASE_URL is not an https:// URL: Vipps is not read until it is.",
      );
    const opened = await this.keys.open(owner.tenant);
    if (!opened) return finish(null, "No Vipps keys are set, or SECRETS_KEY no longer opens them.");
    const { keys, settings } = opened;
    const client = vippsClient(this.env, keys);
    const ledgers = await readLedgers(client, keys.merchantSerialNumber);
    last.calls = client.calls;
    if ("kind" in ledgers)
      return finish(
        now + (ledgers.kind === "refused" ? REFUSED_RETRY_MS : UNAVAILABLE_RETRY_MS),
        ledgers.detail,
      );
    const yesterday = dayOf(now - DAY);
    let nextAt = now + CAUGHT_UP_RETRY_MS;
    for (const l of ledgers.slice(0, MAX_LEDGERS)) {
      let state: VippsLedgerRow = this.book.ledger(l.ledgerId) ?? {
        ledger_id: l.ledgerId,
        currency: l.currency,
        next_date: settings.since,
        carried: NOTHING_CARRIED,
        seen_at: now,
      };
      if (this.book.ledger(l.ledgerId) === null) this.book.putLedger(state);
      for (let n = 0; state.next_date <= yesterday; n++) {
        if (n >= MAX_DATES_PER_READ) {
          nextAt = now;
          break;
        }
        const date = state.next_date;
        const got = await readDateRows(client, l.ledgerId, date);
        last.calls = client.calls;
        if (got.kind === "refused" || got.kind === "unavailable")
          return finish(
            now + (got.kind === "refused" ? REFUSED_RETRY_MS : UNAVAILABLE_RETRY_MS),
            got.detail,
          );
        if (got.kind === "open") {
          nextAt = Math.min(nextAt, this.#stillOpen(l.ledgerId, date, now));
          break;
        }
        const read = readDate(state.carried, date, got.funds, got.fees, settings.referencePrefix);
        state = this.#take(settings, state, date, read, now);
        last.datesRead++;
        last.payoutsFound += read.payouts.length;
      }
    }
    const done = finish(nextAt, null);
    await this.payouts.startPending(owner);
    return done;
  }

  /** Stores one closed date: its payouts, its row, the ledger's next date and what it carries. */
  #take(
    s: VippsSettings,
    state: VippsLedgerRow,
    date: string,
    read: DateRead,
    now: number,
  ): VippsLedgerRow {
    const at = new Date(now).toISOString();
    const next: VippsLedgerRow = {
      ...state,
      next_date: nextDay(date),
      carried: read.carried,
      seen_at: now,
    };
    this.transact(() => {
      for (const p of read.payouts) {
        const payout: Payout = {
          id: p.id,
          provider: "vipps",
          currency: state.currency,
          amount: p.amount,
          arrivalDate: date,
          orderSource: s.orderSource,
          lines: p.lines,
        };
        const vipps = {
          ledgerId: state.ledger_id,
          dates: p.dates,
          carriedIn: p.carriedIn,
          feesInvoiced: p.feesInvoiced,
        };
        this.payouts.takeRead(payout, vipps, at);
      }
      const prior = this.book.date(state.ledger_id, date);
      this.book.putDate({
        ledger_id: state.ledger_id,
        date,
        state: "read",
        tries: (prior?.tries ?? 0) + 1,
        first_try_at: prior?.first_try_at ?? now,
        last_try_at: now,
        funds_rows: read.fundsRows,
        payouts: read.payouts.map((p) => p.id),
        balance_after: read.balanceAfter,
        fees_invoiced: read.feesInvoiced,
        unknown: read.unknown,
      });
      this.book.putLedger(next);
    });
    return next;
  }

  /** Records a try of a date not closed yet; when to try it again. */
  #stillOpen(ledgerId: string, date: string, now: number): number {
    const prior = this.book.date(ledgerId, date);
    const overdue = now - (Date.parse(date) + DAY) > OVERDUE_AFTER_MS;
    this.book.putDate({
      ledger_id: ledgerId,
      date,
      state: overdue ? "overdue" : "open",
      tries: (prior?.tries ?? 0) + 1,
      first_try_at: prior?.first_try_at ?? now,
      last_try_at: now,
      funds_rows: 0,
      payouts: [],
      balance_after: null,
      fees_invoiced: 0,
      unknown: 0,
    });
    return now + (overdue ? DAY : OPEN_RETRY_MS);
  }
}
