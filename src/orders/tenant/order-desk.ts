/**
 * @module
 * The order side of a tenant's object: verifies a webhook (secrets from `order-settings.ts`, the
 * shop from `shop-pins.ts`), records it in the order book, starts each run's Workflow instance,
 * and takes the runs' reports and the operator's retries. `Tenant` owns one.
 *
 * Exactly once: after verification a delivery is read, decided and written with no await, so
 * concurrent deliveries of one order start one run; an instance not yet made is started by the
 * alarm. See docs/design/order-runs.md.
 */
import { readConfig, type Bindings } from "../../kernel/config";
import { log } from "../../kernel/log";
import { InstanceStarts, lostInstance, reviveStep, type Pulses } from "../../kernel/stored-rows";
import { ADAPTERS } from "../adapters/adapters";
import type { Source } from "../order";
import {
  WEBHOOK_UNVERIFIED,
  type Delivery,
  type DeliveryId,
  type SourceAdapter,
} from "../adapters/source";
import {
  applyEvent,
  liveRuns,
  pendingStarts,
  runInstanceId,
  type Intake,
  type OrderRun,
  type RefundRun,
  type RunParams,
  type RunPatch,
  type RunState,
} from "../runs";
import { publicView, type OrderRunView } from "../run-view";
import type { PayoutIntake } from "../../payouts/intake";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import type { TenantName } from "../../kernel/stubs";
import { OrderBook, START_RETRY_MS } from "./order-book";
import type { OrderSettings } from "./order-settings";
import type { PaymentRefs } from "../../ledger/payment-refs";
import type { PayoutDesk } from "../../payouts/tenant/payout-desk";
import type { ShopPins } from "./shop-pins";

/** Whom a run is started for: the tenant, under its current registration. */
export type RunOwner = Pick<RunParams, "tenant" | "registration">;

/** Runs one alarm checks at most: each costs the engine a status read, maybe a termination. */
const REVIVE_BATCH = 20;

/** The next attempt of a run the engine lost, or its failure once lost too often. */
function reviveRun(target: OrderRun | RefundRun, order: boolean, engine: string, at: string) {
  const { step, exhausted } = reviveStep(target.steps, engine, at);
  target.steps.push(step);
  if (exhausted === null)
    Object.assign(target, { state: "received", attempt: target.attempt + 1, started: false });
  else
    Object.assign(target, {
      state: "failed",
      error: order ? { step: "revive", detail: exhausted } : exhausted,
    });
}

/** What a webhook did: 202 when it started or changed a run, 200 otherwise. */
export interface WebhookIntake {
  status: 200 | 202;
  intake: Intake | PayoutIntake | "refused";
  detail: string;
  run: OrderRunView | null;
}

/** The one refusal of an unverified delivery (`WEBHOOK_UNVERIFIED`); the reason is only logged. */
export function unverified(tenant: string | null, source: Source, reason: string) {
  log.info("webhook-refused", { tenant, source, reason });
  return fail("bad-signature", WEBHOOK_UNVERIFIED);
}

/** The answer to a verified delivery of a shop this tenant is not bound to. */
const REFUSED: WebhookIntake = {
  status: 200,
  intake: "refused",
  detail:
    "Not taken: this address takes one shop's deliveries, and this delivery names another. Nothing was booked; the refusal is recorded for the operator.",
  run: null,
};

/** Which outcome answers a delivery of several events: a start over a cancellation, and so on. */
const rank = (i: WebhookIntake["intake"]) =>
  ["refused", "ignored", "duplicate", "failed", "cancelled", "recorded", "started"].indexOf(i);

export class OrderDesk {
  readonly book: OrderBook;
  /** The runs' instances being made, so a burst of deliveries makes each once. */
  readonly #starts = new InstanceStarts();

  constructor(
    sql: SqlStorage,
    private readonly env: Bindings,
    private readonly settings: OrderSettings,
    private readonly pins: ShopPins,
    private readonly payouts: Pick<PayoutDesk, "take" | "startPending">,
    private readonly refs: Pick<PaymentRefs, "link">,
    private readonly pulses: Pulses,
  ) {
    this.book = new OrderBook(sql);
  }

  /** When the alarm should start waiting runs, or null: from the stored rows only. */
  dueAt(): number | null {
    return this.book.startDueAt();
  }

  /** When the longest silent run under way is due for `revive`, or null when none is. */
  reviveDueAt(): number | null {
    const oldest = this.book.oldestLive();
    return oldest === null ? null : oldest + readConfig(this.env).runStallMs;
  }

  /**
   * Starts the next attempt of each run silent for the stall bound whose instance the engine is
   * not moving: lost in a crash the runtime did not resume, or ended without its last report.
   * The old instance is terminated first; the steps' references make the new attempt exactly once.
   */
  async revive(owner: RunOwner, now: number): Promise<void> {
    const stallMs = readConfig(this.env).runStallMs;
    const at = new Date(now).toISOString();
    for (const run of this.book.silent(new Date(now - stallMs).toISOString(), REVIVE_BATCH)) {
      const lost: { refundId: string | null; engine: string }[] = [];
      for (const live of liveRuns(run)) {
        const id = await runInstanceId({ ...owner, ...run, refundId: live.refundId }, live.attempt);
        if (this.pulses.recent(id, now, stallMs)) continue;
        const engine = await lostInstance(this.env.ORDER_TO_INVOICE, id);
        if (engine !== null) lost.push({ refundId: live.refundId, engine });
      }
      // Stamped even when the engine is moving it: checked again a stall bound from now.
      this.#update(run.source, run.orderId, null, (r) => {
        for (const { refundId, engine } of lost) {
          const target = refundId === null ? r : r.refunds.find((x) => x.refund.id === refundId);
          if (target) reviveRun(target, refundId === null, engine, at);
        }
      });
      if (lost.length > 0)
        log.warn("run-revived", { tenant: owner.tenant, orderId: run.orderId, lost });
    }
    await this.startPending(owner);
  }

  /**
   * The whole webhook intake: verifies, records and starts. A verified delivery of a shop the
   * source is not bound to is refused with a 200, so the shop does not retry it and unsubscribe.
   */
  async receive(
    owner: RunOwner,
    source: Source,
    headers: Headers,
    body: Uint8Array,
    now: number,
  ): Promise<Outcome<WebhookIntake>> {
    const adapter = ADAPTERS[source];
    const delivery = { headers, body };
    const verified = await this.#verify(owner.tenant, adapter, delivery, now);
    if (!verified.ok) return verified;
    const refuse = (reason: string) => {
      this.pins.refuse(source, null, reason, now);
      return unverified(owner.tenant, source, reason);
    };
    // From here to the end of the intake: no await, so concurrent deliveries cannot interleave.
    const { eventId, signedAt } = verified.value;
    const shop = adapter.shopOf?.(delivery);
    if (shop === null) return refuse("delivery names no shop");
    const refused = shop === undefined ? null : this.pins.admit(source, shop, now);
    if (refused !== null) {
      log.warn("webhook-shop-refused", { tenant: owner.tenant, source, reason: refused });
      return ok(REFUSED);
    }
    const seen = eventId === null ? null : this.book.lastDelivery(source, eventId);
    // Seen, with no signed time to tell a retry by (Shopify): the same event; it changes nothing.
    if (seen !== null && signedAt === null)
      return ok({
        status: 200,
        intake: "duplicate",
        detail: "Already received: this event was delivered before; nothing new was started.",
        run: null,
      });
    // A genuine retry is signed anew; the same signed timestamp again is somebody replaying it.
    if (seen !== null && signedAt !== null && signedAt <= seen)
      return refuse("replay: this event was already received with this signed timestamp");
    this.pins.accept(source, now);
    const parsed = adapter.parse(delivery);
    if (!parsed.ok)
      return fail(
        parsed.error.status === 401 ? "bad-signature" : "bad-request",
        parsed.error.detail,
      );
    const at = new Date(now).toISOString();
    let answer: WebhookIntake = {
      status: 200,
      intake: "ignored",
      detail: "Nothing to do for this event.",
      run: null,
    };
    for (const event of parsed.value) {
      if (event.kind === "ignored") {
        if (answer.intake === "ignored") answer = { ...answer, detail: event.reason };
        continue;
      }
      if (event.kind === "payout") {
        const { intake, detail } = this.payouts.take(source, event.event, at);
        if (rank(intake) >= rank(answer.intake))
          answer = {
            status:
              intake === "started" || intake === "cancelled" || intake === "recorded" ? 202 : 200,
            intake,
            detail,
            run: null,
          };
        continue;
      }
      if (event.kind === "payment") {
        this.refs.link(source, event.orderId, event.refs, now);
        if (rank("recorded") >= rank(answer.intake))
          answer = {
            status: 202,
            intake: "recorded",
            detail: `The payment of order ${event.orderId} is recorded, for its payout's lines to find the order.`,
            run: null,
          };
        continue;
      }
      const orderId = event.kind === "paid" ? event.order.id : event.orderId;
      const { run, intake } = applyEvent(this.book.get(source, orderId), source, event, at);
      this.book.put(run);
      if (event.kind === "paid" && event.refs) this.refs.link(source, orderId, event.refs, now);
      if (rank(intake) >= rank(answer.intake))
        answer = {
          status: intake === "duplicate" ? 200 : 202,
          intake,
          detail: describe(intake),
          run: publicView(run),
        };
    }
    // Only a delivery that changed the book is remembered, so replays cannot grow the table.
    if (eventId !== null && rank(answer.intake) > rank("duplicate"))
      this.book.remember(source, eventId, signedAt, now);
    await this.startPending(owner);
    await this.payouts.startPending(owner);
    return ok(answer);
  }

  /**
   * The delivery's identity once one of the source's live secrets verifies it. Only a verified
   * signature gets as far as a 400; every other refusal is the one unverified answer.
   */
  async #verify(
    tenant: TenantName,
    adapter: SourceAdapter,
    delivery: Delivery,
    now: number,
  ): Promise<Outcome<DeliveryId>> {
    let reason = "no webhook secret is set for this source";
    for (const secret of await this.settings.secrets(tenant, adapter.source, now)) {
      const verified = await adapter.verify(delivery, secret, now);
      if (verified.ok) return ok(verified.value);
      if (verified.error.status === 400) return fail("bad-request", verified.error.detail);
      reason = verified.error.detail;
    }
    this.pins.refuse(adapter.source, null, reason, now);
    return unverified(tenant, adapter.source, reason);
  }

  /** Creates the instances of runs that have none yet; true when some are still waiting. */
  async startPending(owner: RunOwner): Promise<boolean> {
    let waiting = false;
    for (const run of this.book.pending()) {
      for (const start of pendingStarts(run)) {
        const params: RunParams = {
          ...owner,
          source: run.source,
          orderId: run.orderId,
          refundId: start.refundId,
        };
        const made = await this.#starts.make(this.env.ORDER_TO_INVOICE, {
          id: await runInstanceId(params, start.attempt),
          params,
          // The list read above is behind the book: another call may have started it meanwhile.
          stillDue: () => this.#stillPending(run.source, run.orderId, start),
          defer: () => this.book.deferStart(run.source, run.orderId, Date.now() + START_RETRY_MS),
        });
        waiting ||= made === "waiting";
        if (made !== "made") continue;
        this.#update(run.source, run.orderId, start.refundId, (r, refund) => {
          if (refund) refund.started = true;
          else r.started = true;
        });
      }
    }
    return waiting;
  }

  /** Whether the book, read now, still has `start` of the order to make. */
  #stillPending(
    source: Source,
    orderId: string,
    start: { refundId: string | null; attempt: number },
  ): boolean {
    const run = this.book.get(source, orderId);
    return (
      run !== null &&
      pendingStarts(run).some((s) => s.refundId === start.refundId && s.attempt === start.attempt)
    );
  }

  /**
   * Terminates the instances of every run under way (the tenant is being removed). Best effort: a
   * run that escapes stops at its next step, its registration being gone (`OrderRunPort`).
   */
  async stopAll(owner: RunOwner): Promise<void> {
    const ids: Promise<string>[] = [];
    for (const run of this.book.unfinished()) {
      if (
        run.order &&
        run.state !== "settled" &&
        run.state !== "cancelled" &&
        run.state !== "failed"
      )
        ids.push(
          runInstanceId(
            { ...owner, source: run.source, orderId: run.orderId, refundId: null },
            run.attempt,
          ),
        );
      for (const x of run.refunds)
        if (x.state === "received" || x.state === "running")
          ids.push(
            runInstanceId(
              { ...owner, source: run.source, orderId: run.orderId, refundId: x.refund.id },
              x.attempt,
            ),
          );
    }
    await Promise.allSettled(
      (await Promise.all(ids)).map(async (id) =>
        (await this.env.ORDER_TO_INVOICE.get(id)).terminate(),
      ),
    );
  }

  /** Changes an order's record, and with `refundId` one refund of it too, stamping the time. */
  #update(
    source: Source,
    orderId: string,
    refundId: string | null,
    change: (r: OrderRun, refund: RefundRun | null) => void,
  ): OrderRun | null {
    const current = this.book.get(source, orderId);
    if (!current) return null;
    const next: OrderRun = {
      ...current,
      steps: [...current.steps],
      refunds: current.refunds.map((x) => ({ ...x, steps: [...x.steps] })),
    };
    change(
      next,
      refundId === null ? null : (next.refunds.find((x) => x.refund.id === refundId) ?? null),
    );
    next.updatedAt = new Date().toISOString();
    this.book.put(next);
    return next;
  }

  /**
   * Records what a run reports. A report may bring the invoice waiting refunds need: their runs
   * start now, and the answer is true (the alarm may then be due).
   */
  async report(
    owner: RunOwner,
    source: Source,
    orderId: string,
    refundId: string | null,
    patch: RunPatch,
  ): Promise<boolean> {
    const next = this.#update(source, orderId, refundId, (r, refund) => {
      // A credit note may land before the invoice's settlement is booked: "credited" stays.
      const keep = r.state === "credited" && patch.order?.state === "settled";
      Object.assign(r, patch.order, keep ? { state: "credited" } : {});
      if (refund) Object.assign(refund, patch.refund);
      if (patch.step) (refund ?? r).steps.push(patch.step);
    });
    if (next === null || pendingStarts(next).length === 0) return false;
    await this.startPending(owner);
    return true;
  }

  /** A new attempt (a new instance) for a failed order or refund; a conflict when none failed. */
  async retry(owner: RunOwner, source: Source, orderId: string): Promise<Outcome<OrderRunView>> {
    const run = this.book.get(source, orderId);
    if (!run) return notFound(source, orderId);
    if (run.state !== "failed" && !run.refunds.some((x) => x.state === "failed"))
      return fail(
        "conflict",
        "Neither the order nor any of its refunds failed: there is nothing to retry.",
      );
    // An unusable order failed on what the shop sent: a retry would read the same.
    if (run.state === "failed" && !run.order)
      return fail(
        "conflict",
        `The order cannot be invoiced as the shop sent it (${run.error?.detail ?? "see its error"}); a retry would read the same. Correct it in the shop so it is sent again.`,
      );
    const next: OrderRun = {
      ...run,
      refunds: run.refunds.map((x) =>
        x.state === "failed"
          ? { ...x, state: "received", error: null, attempt: x.attempt + 1, started: false }
          : x,
      ),
    };
    if (run.state === "failed" && run.order)
      Object.assign(next, {
        state: "received",
        error: null,
        attempt: run.attempt + 1,
        started: false,
      });
    next.updatedAt = new Date().toISOString();
    this.book.put(next);
    await this.startPending(owner);
    return this.view(source, orderId);
  }

  /** One order's run as its tenant's callers see it. */
  view(source: Source, orderId: string): Outcome<OrderRunView> {
    const r = this.book.get(source, orderId);
    return r ? ok(publicView(r)) : notFound(source, orderId);
  }

  list(state: RunState | null, limit: number): OrderRunView[] {
    return this.book.list(state, limit).map(publicView);
  }
}

function notFound(source: Source, orderId: string) {
  return fail("not-found", `No ${source} order ${orderId} has reached this tenant.`);
}

function describe(intake: Intake): string {
  switch (intake) {
    case "started":
      return "The order's run is recorded and started.";
    case "duplicate":
      return "Already received: this is the existing run; nothing new was started.";
    case "cancelled":
      return "The cancellation is recorded.";
    case "failed":
      return "The order is recorded, but it cannot be invoiced as sent: its run failed (see error); nothing was booked.";
    default:
      return "Nothing to do for this event.";
  }
}
