/**
 * @module
 * `SandboxStripe`: the stand-in of Stripe's API, one object for every stand-in account
 * (`idFromName("stripe")`): accounts and their restricted keys (stored hashed), charges, refunds,
 * fees, payouts, and the balance transactions they make. An automatic payout takes every
 * transaction of the account not yet paid out, as Stripe's schedule sweeps the available balance;
 * a manual or instant one takes none (Stripe cannot say which it holds). Answers are Stripe's
 * errors as values (`StripeResult`): a rejection across RPC carries no status. Its storage is
 * `stripe/store.ts`.
 */
import { DurableObject } from "cloudflare:workers";
import { randomHex, saltedHash } from "../lib/crypto";
import { charge, payout, refund, stripeId, unix, type StripeObject } from "../stripe/objects";
import { StripeStore } from "../stripe/store";

/** Stripe's error body, and its status. */
export interface StripeError {
  status: number;
  error: { type: string; message: string; code?: string; param?: string };
}
/**
 * An answer of the stand-in as JSON text (plain text crosses RPC with no deep typing), or Stripe's
 * error.
 */
export type StripeResult = { ok: true; json: string } | ({ ok: false } & StripeError);

const answer = (value: unknown): StripeResult => ({ ok: true, json: JSON.stringify(value) });

/** Stripe's own words when a manual payout's transactions are asked for. */
export const MANUAL_FILTER_MESSAGE =
  "Balance transaction history can only be filtered on automatic transfers, not manual.";

const SALT = "ledgergate-sandbox-stripe";

const invalid = (status: number, message: string, more: Partial<StripeError["error"]> = {}) =>
  ({
    ok: false,
    status,
    error: { type: "invalid_request_error", message, ...more },
  }) as const;

/** A list request of balance transactions, as the route parsed it. */
export interface ListAsk {
  payout: string | null;
  limit: number;
  startingAfter: string | null;
  expandSource: boolean;
}

export class SandboxStripe extends DurableObject<SandboxEnv> {
  readonly #store: StripeStore;

  constructor(ctx: DurableObjectState, env: SandboxEnv) {
    super(ctx, env);
    this.#store = new StripeStore(ctx.storage.sql);
  }

  /** A new account and its restricted key (the key is answered here only, and stored hashed). */
  async createAccount(currency: string): Promise<{ account: string; key: string }> {
    const account = `acct_${randomHex(8)}`;
    const key = `rk_test_${stripeId("x").slice(3)}${randomHex(8)}`;
    this.#store.addAccount(account, await saltedHash(SALT, key), currency);
    return { account, key };
  }

  /** The account of `key`, or null; counts the request (by its path) and the version it pinned. */
  async authenticate(key: string | null, path: string, version: string | null) {
    this.#store.bump("requests");
    this.#store.bump(`path ${path}`);
    if (version) this.#store.bump(`version ${version}`);
    const found = key ? this.#store.accountOf(await saltedHash(SALT, key)) : null;
    if (!found) this.#store.bump("refused");
    return found;
  }

  /** Charges of the account, each with its payment intent (given, or a new one) and its fee. */
  createCharges(
    account: string,
    asks: { amount: number; fee: number; paymentIntent?: string | undefined }[],
  ): StripeResult {
    const currency = this.#store.currency(account);
    if (!currency) return invalid(404, `No such account: '${account}'`);
    const created = unix(new Date());
    return answer({
      charges: this.ctx.storage.transactionSync(() =>
        asks.map((a) => {
          const id = stripeId("ch");
          const txn = stripeId("txn");
          const paymentIntent = a.paymentIntent ?? stripeId("pi");
          this.#store.put(
            account,
            charge({ id, currency, txn, created, amount: a.amount, paymentIntent }),
          );
          this.#store.txn(account, {
            id: txn,
            amount: a.amount,
            fee: a.fee,
            currency,
            type: "charge",
            category: "charge",
            source: id,
            description: null,
            created,
          });
          return { charge: id, paymentIntent, balanceTransaction: txn };
        }),
      ),
    });
  }

  /** A refund of `amount` of the account's `chargeId`. */
  createRefund(account: string, chargeId: string, amount: number): StripeResult {
    const c = this.#store.get(account, chargeId);
    if (!c || c.object !== "charge") return invalid(404, `No such charge: '${chargeId}'`);
    const id = stripeId("re");
    const txn = stripeId("txn");
    const created = unix(new Date());
    const currency = String(c.currency);
    const pi = typeof c.payment_intent === "string" ? c.payment_intent : null;
    this.ctx.storage.transactionSync(() => {
      this.#store.put(
        account,
        refund({ id, amount, currency, charge: chargeId, paymentIntent: pi, txn, created }),
      );
      this.#store.put(account, { ...c, amount_refunded: Number(c.amount_refunded) + amount });
      this.#store.txn(account, {
        id: txn,
        amount: -amount,
        fee: 0,
        currency,
        type: "refund",
        category: "refund",
        source: id,
        description: "REFUND FOR CHARGE",
        created,
      });
    });
    return answer({ refund: id, balanceTransaction: txn });
  }

  /** A Stripe fee not tied to a charge (Radar, Billing…): `reporting_category` `fee`. */
  createFee(account: string, amount: number, description: string): StripeResult {
    const currency = this.#store.currency(account);
    if (!currency) return invalid(404, `No such account: '${account}'`);
    const txn = stripeId("txn");
    this.#store.txn(account, {
      id: txn,
      amount: -amount,
      fee: 0,
      currency,
      type: "stripe_fee",
      category: "fee",
      source: null,
      description,
      created: unix(new Date()),
    });
    return answer({ balanceTransaction: txn });
  }

  /**
   * A payout. Automatic (standard): every transaction not yet paid out, its amount their net. Manual
   * or instant: `amount`, holding no transaction Stripe could name.
   */
  createPayout(
    account: string,
    o: {
      automatic: boolean;
      method: string;
      amount: number | null;
      reconciliation: string;
      arrivalDate: string;
    },
  ): StripeResult {
    const currency = this.#store.currency(account);
    if (!currency) return invalid(404, `No such account: '${account}'`);
    const itemised = o.automatic && o.method === "standard";
    const held = itemised ? this.#store.unpaid(account) : [];
    const amount = itemised ? held.reduce((n, r) => n + r.net, 0) : (o.amount ?? 0);
    if (amount <= 0)
      return invalid(400, "The payout's amount must be positive.", { param: "amount" });
    const id = stripeId("po");
    const txn = stripeId("txn");
    const created = unix(new Date());
    const po = payout({
      id,
      amount,
      currency,
      automatic: o.automatic,
      method: o.method,
      reconciliation: itemised ? o.reconciliation : "not_applicable",
      arrival: unix(new Date(`${o.arrivalDate}T00:00:00Z`)),
      txn,
      created,
    });
    this.ctx.storage.transactionSync(() => {
      for (const r of held) this.#store.payOut(r.id, id);
      this.#store.put(account, po);
      // Its own transaction is listed with its lines (as Stripe lists it); a manual payout's is
      // never swept into a later automatic one either.
      this.#store.txn(
        account,
        {
          id: txn,
          amount: -amount,
          fee: 0,
          currency,
          type: "payout",
          category: "payout",
          source: id,
          description: "STRIPE PAYOUT",
          created,
        },
        id,
      );
    });
    return answer(po);
  }

  /** Changes a payout's status or reconciliation status (its ledger completed, it failed). */
  updatePayout(account: string, id: string, patch: StripeObject): StripeResult {
    const po = this.#store.get(account, id);
    if (!po || po.object !== "payout") return invalid(404, `No such payout: '${id}'`);
    const next = { ...po, ...patch };
    this.#store.put(account, next);
    return answer(next);
  }

  /** `GET /v1/payouts/{id}`. */
  payout(account: string, id: string): StripeResult {
    const po = this.#store.get(account, id);
    return po?.object === "payout"
      ? answer(po)
      : invalid(404, `No such payout: '${id}'`, { code: "resource_missing", param: "id" });
  }

  /** `GET /v1/balance_transactions`: newest first, cursor paging, sources expanded on request. */
  listTransactions(account: string, ask: ListAsk): StripeResult {
    if (ask.payout !== null) {
      const po = this.#store.get(account, ask.payout);
      if (!po || po.object !== "payout")
        return invalid(404, `No such payout: '${ask.payout}'`, {
          code: "resource_missing",
          param: "payout",
        });
      if (po.automatic !== true || po.method !== "standard")
        return invalid(400, MANUAL_FILTER_MESSAGE, { param: "payout" });
    }
    let before = Number.MAX_SAFE_INTEGER;
    if (ask.startingAfter !== null) {
      const at = this.#store.seqOf(account, ask.startingAfter);
      if (at === null)
        return invalid(400, `No such balance transaction: '${ask.startingAfter}'`, {
          code: "resource_missing",
          param: "starting_after",
        });
      before = at;
    }
    const rows = this.#store.list(account, before, ask.limit + 1, ask.payout);
    const data = rows
      .slice(0, ask.limit)
      .map((t) =>
        ask.expandSource && typeof t.source === "string"
          ? { ...t, source: this.#store.get(account, t.source) ?? t.source }
          : t,
      );
    return answer({
      object: "list",
      data,
      has_more: rows.length > ask.limit,
      url: "/v1/balance_transactions",
    });
  }

  /** The stand-in's counters: requests to `/v1`, refused keys, by path, the versions pinned. */
  stats(): string {
    const all = this.#store.counters();
    const pick = (prefix: string) =>
      Object.fromEntries(
        all
          .filter((r) => r.name.startsWith(prefix))
          .map((r) => [r.name.slice(prefix.length), r.value]),
      );
    const one = (name: string) => all.find((r) => r.name === name)?.value ?? 0;
    return JSON.stringify({
      requests: one("requests"),
      refused: one("refused"),
      byPath: pick("path "),
      versions: pick("version "),
    });
  }

  /** Forgets every account and object. */
  async reset(): Promise<void> {
    this.#store.clear();
  }
}
