/**
 * @module
 * The payout side of a tenant's object: intake, starting each attempt's instance, the task of an
 * attempt (matched and claimed in one synchronous stretch), reports, retries and views. It reads
 * the order book, never writes it. How this books each payout exactly once: docs/payouts.md.
 */
import { readConfig, type Bindings } from "../../kernel/config";
import { log } from "../../kernel/log";
import { matchPayout } from "../match";
import { confirmable } from "../rules";
import { factsOf } from "../facts";
import type { Payout, PayoutEvent, PayoutSource } from "../payout";
import type { LedgerRead, PayoutTask } from "../port";
import { ledgerTask, withRead } from "../stripe/task";
import { afterRun, applyPayoutEvent, type PayoutIntake } from "../intake";
import {
  again,
  blank,
  payoutInstanceId,
  type PayoutPatch,
  type PayoutRecord,
  type PayoutState,
  type VippsFacts,
} from "../records";
import { payoutView, unpaidView, type PayoutView, type UnpaidOrder } from "../view";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import { InstanceStarts, lostInstance, reviveStep, type Pulses } from "../../kernel/stored-rows";
import type { OrderBook } from "../../orders/tenant/order-book";
import type { RunOwner } from "../../orders/tenant/order-desk";
import type { OrderSettings } from "../../orders/tenant/order-settings";
import type { PaymentRefs } from "../../ledger/payment-refs";
import { PAYOUT_START_RETRY_MS, PayoutBook, type Holdings } from "./payout-book";

/** States whose claims are given up: their orders are in no payout again. */
const RELEASING: readonly PayoutState[] = [
  "unmatched",
  "cancelled",
  "reversed",
  "needs-key",
  "not-itemised",
];
/** Payouts one alarm checks at most (as `OrderDesk`'s runs). */
const REVIVE_BATCH = 20;
const RETRYABLE: readonly PayoutState[] = ["unmatched", "failed", "needs-key"];

export class PayoutDesk {
  readonly book: PayoutBook;
  /** The attempts' instances being made (as `OrderDesk`'s). */
  readonly #starts = new InstanceStarts();

  constructor(
    sql: SqlStorage,
    private readonly env: Bindings,
    private readonly settings: OrderSettings,
    private readonly orders: OrderBook,
    private readonly refs: Pick<PaymentRefs, "orderOf">,
    private readonly pulses: Pulses,
  ) {
    this.book = new PayoutBook(sql);
  }

  /** When the alarm should start waiting runs (again), from the stored rows; null when none. */
  dueAt(): number | null {
    return this.book.startDueAt();
  }

  /** Applies a verified payout event, synchronously: what it did, for the webhook's answer. */
  take(
    source: PayoutSource,
    event: PayoutEvent,
    at: string,
  ): { intake: PayoutIntake; detail: string; view: PayoutView | null } {
    const id = event.kind === "payout-failed" ? event.payoutId : event.payout.id;
    const { record, intake, detail } = applyPayoutEvent(
      this.book.get(source, id),
      source,
      event,
      at,
    );
    if (record) {
      if (record.state === "cancelled") this.book.release(source, id);
      this.book.put(record);
    }
    return { intake, detail, view: record && payoutView(record) };
  }

  /**
   * A payout the gateway read from a Vipps ledger: recorded once, its run started by the caller's
   * `startPending`; the same payout read again is nothing new.
   */
  takeRead(payout: Payout, vipps: VippsFacts, at: string): PayoutIntake {
    if (this.book.get("vipps", payout.id)) return "duplicate";
    this.book.put({ ...blank("vipps", payout, at), deliveries: 1, vipps });
    return "started";
  }

  /** When the longest silent attempt under way is due for `revive`, or null when none is. */
  reviveDueAt(): number | null {
    const oldest = this.book.oldestLive();
    return oldest === null ? null : oldest + readConfig(this.env).runStallMs;
  }

  /**
   * Starts the next attempt of each payout silent for the stall bound whose instance the engine is
   * not moving, as `OrderDesk.revive` does for order runs; a report of the lost one is dropped.
   */
  async revive(owner: RunOwner, now: number): Promise<void> {
    const at = new Date(now).toISOString();
    const stallMs = readConfig(this.env).runStallMs;
    const before = new Date(now - stallMs).toISOString();
    for (const r of this.book.silent(before, REVIVE_BATCH)) {
      const id = await payoutInstanceId({ ...owner, ...r });
      const engine = this.pulses.recent(id, now, stallMs)
        ? null
        : await lostInstance(this.env.PAYOUT_RECONCILIATION, id);
      // Stamped even when the engine is moving it: checked again a stall bound from now.
      if (engine === null) {
        this.book.put({ ...r, updatedAt: at });
        continue;
      }
      const { step, exhausted } = reviveStep(r.steps, engine, at);
      const steps = [...r.steps, step];
      this.book.put(
        exhausted === null
          ? {
              ...again(r, r.state === "reversing" ? "reversing" : "received"),
              steps,
              updatedAt: at,
            }
          : {
              ...r,
              state: "failed",
              error: { step: "revive", detail: exhausted },
              steps,
              updatedAt: at,
            },
      );
      log.warn("run-revived", { tenant: owner.tenant, payoutId: r.payoutId, engine });
    }
    await this.startPending(owner);
  }

  /** Creates the Workflow instances of attempts that have none yet; true when some still wait. */
  async startPending(owner: RunOwner): Promise<boolean> {
    let waiting = false;
    for (const r of this.book.pending()) {
      const params = { ...owner, source: r.source, payoutId: r.payoutId, attempt: r.attempt };
      const made = await this.#starts.make(this.env.PAYOUT_RECONCILIATION, {
        id: await payoutInstanceId(params),
        params,
        stillDue: () => {
          const now = this.book.get(r.source, r.payoutId);
          return now !== null && now.attempt === r.attempt && !now.started;
        },
        defer: () => this.book.deferStart(r.source, r.payoutId, Date.now() + PAYOUT_START_RETRY_MS),
      });
      waiting ||= made === "waiting";
      if (made !== "made") continue;
      const current = this.book.get(r.source, r.payoutId);
      if (current && current.attempt === r.attempt) this.book.put({ ...current, started: true });
    }
    return waiting;
  }

  /** What `attempt` is to do; its orders are claimed, or its issues recorded, now. */
  task(source: PayoutSource, payoutId: string, attempt: number): PayoutTask {
    const r = this.book.get(source, payoutId);
    if (!r || r.attempt !== attempt) return { kind: "stale" };
    if (r.state === "reversing")
      return { kind: "reverse", voucher: r.voucher, date: r.payout.arrivalDate };
    if (r.state !== "received" && r.state !== "running") return { kind: "stale" };
    const mapping = this.settings.mapping();
    // A payout read from Stripe reads its lines (or a balance) before it matches.
    const first = ledgerTask(r, mapping);
    if (first) return first;
    const orderSource = r.payout.orderSource;
    const result = matchPayout(
      source,
      r.payout,
      {
        order: (orderId) => {
          const run = this.orders.get(orderSource, orderId);
          return run && factsOf(run, mapping);
        },
        claimedBy: (orderId, refundId) => this.book.claimedBy(orderSource, orderId, refundId),
        orderOfPayment: (ref) => this.refs.orderOf(orderSource, ref),
      },
      mapping,
      r.confirmedBy === "operator",
    );
    const at = new Date().toISOString();
    if (result.kind === "unmatched") {
      this.book.release(source, payoutId);
      this.book.put({
        ...r,
        state: "unmatched",
        issues: result.issues,
        issueCount: result.issueCount,
        updatedAt: at,
      });
      return result;
    }
    this.book.claim({ source, payoutId, orderSource }, result.claims);
    const { reference, bankAccount } = result.plan;
    this.book.put({
      ...r,
      state: "running",
      issues: [],
      issueCount: 0,
      voucher: { reference, bankAccount, id: null, number: null },
      updatedAt: at,
    });
    return { kind: "book", plan: result.plan };
  }

  /** Takes what `attempt` read of a Stripe payout and answers what follows, as `task` does. */
  read(source: PayoutSource, payoutId: string, attempt: number, read: LedgerRead): PayoutTask {
    const r = this.book.get(source, payoutId);
    if (!r || r.attempt !== attempt || r.state !== "received") return { kind: "stale" };
    this.book.put(withRead(r, read, new Date().toISOString()));
    return this.task(source, payoutId, attempt);
  }

  /** A new attempt of every payout that waits for a Stripe key; how many. */
  async keyChanged(owner: RunOwner): Promise<number> {
    const waiting = this.book.list("needs-key", 500);
    for (const r of waiting)
      this.book.put({ ...again(r, "received"), updatedAt: new Date().toISOString() });
    if (waiting.length > 0) await this.startPending(owner);
    return waiting.length;
  }

  /**
   * Takes a run's report (another attempt's is dropped: a newer one owns the payout); true when
   * a payout that failed meanwhile started its reversal.
   */
  async report(
    owner: RunOwner,
    source: PayoutSource,
    payoutId: string,
    attempt: number,
    patch: PayoutPatch,
  ): Promise<boolean> {
    const r = this.book.get(source, payoutId);
    if (!r || r.attempt !== attempt) return false;
    const { step, clearing, ...fields } = patch;
    const next = afterRun({
      ...r,
      ...fields,
      stripe: r.stripe && clearing !== undefined ? { ...r.stripe, clearing } : r.stripe,
      steps: step ? [...r.steps, step] : r.steps,
      updatedAt: new Date().toISOString(),
    });
    if (RELEASING.includes(next.state)) this.book.release(source, payoutId);
    this.book.put(next);
    if (next.attempt === r.attempt) return false;
    await this.startPending(owner);
    return true;
  }

  /** A new attempt for an unmatched or failed payout; "conflict" for any other. */
  async retry(
    owner: RunOwner,
    source: PayoutSource,
    payoutId: string,
  ): Promise<Outcome<PayoutView>> {
    const r = this.book.get(source, payoutId);
    if (!r) return notFound(source, payoutId);
    if (r.failed || !RETRYABLE.includes(r.state))
      return fail(
        "conflict",
        `Payout ${payoutId} is ${r.state}${r.failed ? " and failed at the provider" : ""}: only an unmatched or failed payout, or one that needs a Stripe key, is retried.`,
      );
    return this.#attempt(owner, r, { confirming: false });
  }

  /**
   * The operator's confirmation of a payout held for `needs-orders`, and a new attempt whose match
   * skips that one rule and keeps every other check.
   */
  async confirm(
    owner: RunOwner,
    source: PayoutSource,
    payoutId: string,
  ): Promise<Outcome<PayoutView>> {
    const r = this.book.get(source, payoutId);
    if (!r) return notFound(source, payoutId);
    if (!confirmable(r))
      return fail(
        "conflict",
        `Payout ${payoutId} is ${r.state}${r.failed ? " and failed at the provider" : ""}, not held because it pays out no order (needs-orders): there is nothing to confirm.`,
      );
    return this.#attempt(owner, r, { confirming: true });
  }

  async #attempt(
    owner: RunOwner,
    r: PayoutRecord,
    { confirming }: { confirming: boolean },
  ): Promise<Outcome<PayoutView>> {
    const at = new Date().toISOString();
    const next: PayoutRecord = {
      ...r,
      state: "received",
      attempt: r.attempt + 1,
      started: false,
      error: null,
      updatedAt: at,
      ...(confirming ? { confirmedBy: "operator", confirmedAt: at } : {}),
    };
    this.book.put(next);
    await this.startPending(owner);
    return this.view(r.source, r.payoutId);
  }

  /** Terminates the instances of payouts under way (the tenant is being removed). */
  async stopAll(owner: RunOwner): Promise<void> {
    const ids = await Promise.all(
      this.book.underway().map((r) =>
        payoutInstanceId({
          ...owner,
          source: r.source,
          payoutId: r.payoutId,
          attempt: r.attempt,
        }),
      ),
    );
    await Promise.allSettled(
      ids.map(async (id) => (await this.env.PAYOUT_RECONCILIATION.get(id)).terminate()),
    );
  }

  view(source: PayoutSource, payoutId: string): Outcome<PayoutView> {
    const r = this.book.get(source, payoutId);
    return r ? ok(payoutView(r)) : notFound(source, payoutId);
  }

  list(state: PayoutState | null, limit: number): PayoutView[] {
    return this.book.list(state, limit).map(payoutView);
  }

  /** What each clearing account holds, orders due after `unpaidAfterDays` among it. */
  held(now: number): Holdings {
    const { bankAccount, unpaidAfterDays } = this.settings.mapping().payouts;
    const lastDay = new Date(now - unpaidAfterDays * 86_400_000).toISOString().slice(0, 10);
    return { afterDays: unpaidAfterDays, accounts: this.book.held(lastDay, bankAccount) };
  }

  /** Orders settled to a clearing account `unpaidAfterDays` ago or more that no payout holds. */
  unpaid(now: number, limit: number): { afterDays: number; orders: UnpaidOrder[] } {
    const { bankAccount, unpaidAfterDays } = this.settings.mapping().payouts;
    const lastDay = new Date(now - unpaidAfterDays * 86_400_000).toISOString().slice(0, 10);
    const orders = this.book
      .unpaid(lastDay, bankAccount, limit)
      .map(unpaidView)
      .filter((o): o is UnpaidOrder => o !== null);
    return { afterDays: unpaidAfterDays, orders };
  }
}

function notFound(source: PayoutSource, payoutId: string) {
  return fail("not-found", `No ${source} payout ${payoutId} has reached this tenant.`);
}
