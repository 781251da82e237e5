/**
 * @module
 * `SandboxVipps`: the stand-in of the Vipps MobilePay APIs a settlement is read with, one object
 * for every stand-in merchant (`idFromName("vipps")`): merchants and their sales-unit keys (stored
 * hashed), 24-hour access tokens, one ledger per merchant, and per ledger date the captures,
 * refunds and other entries added while it is open and the funds and fees rows it has once
 * closed (`vipps/ledger.ts`). Dates close in order: a date before the last one closed reads as
 * closed, empty if nothing was added to it. Answers are values (`VippsResult`): a
 * rejection across RPC carries no status. Storage: `vipps/store.ts`.
 */
import { DurableObject } from "cloudflare:workers";
import { randomHex, randomToken, saltedHash } from "../lib/crypto";
import { closeDate, feeOf, type Pending } from "../vipps/ledger";
import { VippsStore, type Merchant, type Report } from "../vipps/store";

/** An answer as JSON text and its status (plain text crosses RPC with no deep typing). */
export interface VippsResult {
  status: number;
  json: string;
}

const answer = (value: unknown, status = 200): VippsResult => ({
  status,
  json: JSON.stringify(value),
});

/** The Report API's problem body (its `type` guessed: docs/sandbox.md). */
const problem = (status: number, title: string, detail: string) =>
  answer(
    { type: `https://developer.vippsmobilepay.com/problems/${status}`, title, detail, status },
    status,
  );

const SALT = "ledgergate-sandbox-vipps";

/** A token lives 24 hours, as the access token API's for a sales unit. */
const TOKEN_SECONDS = 86_400;

/** Rows per page when the caller names no `pageSize`; the most one page holds. */
export const DEFAULT_PAGE = 1_000;
export const MAX_PAGE = 1_000;

export interface NewMerchant {
  settlement: "net" | "gross";
  currency: string;
  feeBasisPoints: number;
  /** Every this many closed dates, one entry of a type Vipps does not document (0: never). */
  surpriseEvery: number;
}

/** What "be prepared to receive entry types not listed" looks like here: 1 øre of interest. */
export const SURPRISE = { entryType: "interest-credited", amount: 1 } as const;

export type Entry =
  | { kind: "capture"; reference: string; amount: number }
  | { kind: "refund"; reference: string; amount: number }
  | { kind: "entry"; entryType: string; reference: string; amount: number };

export class SandboxVipps extends DurableObject<SandboxEnv> {
  readonly #store: VippsStore;

  constructor(ctx: DurableObjectState, env: SandboxEnv) {
    super(ctx, env);
    this.#store = new VippsStore(ctx.storage.sql);
  }

  /** A new merchant (sales unit) with its keys and its ledger; the keys are answered here only. */
  async createMerchant(m: NewMerchant) {
    const msn = String(100_000 + Math.floor(Math.random() * 900_000));
    const clientId = crypto.randomUUID();
    const clientSecret = randomToken();
    const subscriptionKey = randomHex(16);
    const ledgerId = String(300_000 + Math.floor(Math.random() * 700_000));
    this.#store.addMerchant({
      msn,
      clientId,
      secretHash: await saltedHash(SALT, clientSecret),
      subscriptionHash: await saltedHash(SALT, subscriptionKey),
      ledgerId,
      recipientHandle: `NO:${msn}`,
      balance: 0,
      feeBalance: 0,
      payouts: 0,
      lastClosed: null,
      closedDates: 0,
      ...m,
    });
    return { merchantSerialNumber: msn, clientId, clientSecret, subscriptionKey, ledgerId };
  }

  /** `POST /accesstoken/get`: a token for the keys, or the 401 of wrong ones. */
  async accessToken(clientId: string, secret: string, subscriptionKey: string, now: number) {
    this.#store.bump("requests");
    this.#store.bump("path /accesstoken/get");
    const m = this.#store.merchantBy("client_id", clientId);
    const fits =
      m !== null &&
      m.secretHash === (await saltedHash(SALT, secret)) &&
      m.subscriptionHash === (await saltedHash(SALT, subscriptionKey));
    if (!m || !fits) {
      this.#store.bump("refused");
      return answer(
        { error: "unauthorized_client", error_description: "The client id or secret is wrong." },
        401,
      );
    }
    const token = randomToken();
    const seconds = Math.floor(now / 1000);
    this.#store.addToken(await saltedHash(SALT, token), m.msn, now + TOKEN_SECONDS * 1000);
    this.#store.bump("tokens");
    // Every field a string, as the access token API answers them.
    return answer({
      token_type: "Bearer",
      expires_in: String(TOKEN_SECONDS),
      ext_expires_in: String(TOKEN_SECONDS),
      expires_on: String(seconds + TOKEN_SECONDS),
      not_before: String(seconds),
      resource: "00000002-0000-0000-c000-000000000000",
      access_token: token,
    });
  }

  /** The merchant of a request's token and subscription key, or null; counts it by `route`. */
  async authenticate(token: string | null, subscriptionKey: string | null, route: string) {
    this.#store.bump("requests");
    this.#store.bump(`path ${route}`);
    const msn = token ? this.#store.tokenMerchant(await saltedHash(SALT, token), Date.now()) : null;
    const m = msn === null ? null : this.#store.merchantBy("msn", msn);
    const fits =
      m !== null && m.subscriptionHash === (await saltedHash(SALT, subscriptionKey ?? ""));
    if (!fits) this.#store.bump("refused");
    return fits ? m.msn : null;
  }

  /** `GET /settlement/v1/ledgers`: the merchant's ledger, if `handles` (when given) names it. */
  ledgers(msn: string, handles: string[]): VippsResult {
    const m = this.#store.merchantBy("msn", msn);
    const wanted = handles.length === 0 || handles.includes(`api:${msn}`);
    const items =
      m && wanted
        ? [
            {
              ledgerId: m.ledgerId,
              currency: m.currency,
              payoutBankAccount: { scheme: "BBAN:NO", id: "12345678903" },
              owner: { scheme: "business:NO:ORG", id: "999999999" },
              settlesForRecipientHandles: [`NO:${msn}`],
            },
          ]
        : [];
    return answer({ items, cursor: "" });
  }

  /** `GET /report/v2/ledgers/{ledgerId}/{funds|fees}/dates/{date}`: a page of a closed date. */
  report(msn: string, ledgerId: string, report: Report, date: string, from: number, size: number) {
    const m = this.#store.merchantBy("ledger_id", ledgerId);
    if (!m || m.msn !== msn) return problem(404, "Not Found", "No such ledgerId");
    // Dates close in order: one before the last closed date closed too, with whatever it had.
    const closed =
      this.#store.isClosed(ledgerId, date) || (m.lastClosed !== null && date < m.lastClosed);
    if (!closed) return answer({ items: [], tryLater: true });
    const items = this.#store.rows(ledgerId, date, report, from, size + 1);
    const hasMore = items.length > size;
    return answer({
      ...(hasMore ? { cursor: btoa(String(from + size)) } : {}),
      hasMore,
      tryLater: false,
      items: items.slice(0, size),
    });
  }

  /** Adds entries to an open date of the ledger. */
  add(ledgerId: string, date: string, entries: readonly Entry[]): VippsResult {
    const m = this.#store.merchantBy("ledger_id", ledgerId);
    const refused = this.#openCheck(m, ledgerId, date);
    if (refused || !m) return refused ?? problem(404, "Not Found", "No such ledgerId");
    this.ctx.storage.transactionSync(() => {
      for (const e of entries) this.#store.addPending(ledgerId, date, this.#pending(m, e));
    });
    return answer({ added: entries.length }, 201);
  }

  /** Captures of `orders` (the sandbox client's invoices) this ledger has not captured yet. */
  capture(ledgerId: string, date: string, orders: { reference: string; amount: number }[]) {
    const m = this.#store.merchantBy("ledger_id", ledgerId);
    const refused = this.#openCheck(m, ledgerId, date);
    if (refused || !m) return refused ?? problem(404, "Not Found", "No such ledgerId");
    const fresh = orders.filter((o) => !this.#store.wasCaptured(ledgerId, o.reference));
    this.ctx.storage.transactionSync(() => {
      for (const o of fresh)
        this.#store.addPending(ledgerId, date, this.#pending(m, { kind: "capture", ...o }));
    });
    return answer({ captured: fresh.length, references: fresh.map((o) => o.reference) }, 201);
  }

  /** Closes a date: its rows are readable from now, and a positive balance is paid out. */
  close(ledgerId: string, date: string): VippsResult {
    const m = this.#store.merchantBy("ledger_id", ledgerId);
    const refused = this.#openCheck(m, ledgerId, date);
    if (refused || !m) return refused ?? problem(404, "Not Found", "No such ledgerId");
    const pending = this.#store.pending(ledgerId, date);
    if (m.surpriseEvery > 0 && (m.closedDates + 1) % m.surpriseEvery === 0)
      pending.push(this.#pending(m, { kind: "entry", reference: "", ...SURPRISE }));
    const done = closeDate(m, date, pending, new Date().toISOString());
    this.ctx.storage.transactionSync(() =>
      this.#store.close(m, date, { funds: done.funds, fees: done.fees }, done.next),
    );
    return answer({
      ledgerId,
      date,
      payout: done.payout,
      balanceAfter: done.next.balance,
      funds: done.funds.length,
      fees: done.fees.length,
    });
  }

  stats(): Record<string, number> {
    return this.#store.counters();
  }

  reset(): void {
    this.#store.clear();
  }

  #openCheck(m: Merchant | null, ledgerId: string, date: string): VippsResult | null {
    if (!m) return problem(404, "Not Found", "No such ledgerId");
    if (this.#store.isClosed(ledgerId, date))
      return problem(409, "Conflict", `Ledger ${ledgerId}'s date ${date} is closed.`);
    if (m.lastClosed !== null && date < m.lastClosed)
      return problem(
        409,
        "Conflict",
        `Ledger ${ledgerId} closed ${m.lastClosed}: dates close in order, so ${date} cannot change.`,
      );
    return null;
  }

  #pending(m: Merchant, e: Entry): Pending {
    const pspReference = randomHex(10);
    return e.kind === "capture"
      ? { ...e, pspReference, fee: feeOf(e.amount, m.feeBasisPoints) }
      : { ...e, pspReference };
  }
}
