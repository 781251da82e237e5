/**
 * @module
 * The order side of a tenant's object: webhook secrets (sealed), the order mapping, the intake of
 * verified webhooks into the order book, starting each run's Workflow instance, and what runs
 * report back. `Tenant` owns one and exposes its methods; nothing here is reachable otherwise.
 *
 * Exactly once: a delivery is verified (the only await), then read, decided and written in one
 * synchronous stretch, so twenty concurrent deliveries of one order see one record and start one
 * run. The instance is created after the record is stored; if that fails, the record says so and
 * the object's alarm starts it later, so an answered webhook never loses its run.
 */
import type { Bindings } from "../lib/config";
import { open, seal, type Sealed } from "../lib/crypto";
import { ADAPTERS } from "../lib/orders/adapters";
import { resolveMapping, type OrderMapping, type OrderMappingInput } from "../lib/orders/mapping";
import type { Source } from "../lib/orders/order";
import { applyEvent, pendingStarts, publicView, runInstanceId, type Intake, type OrderRun, type OrderRunView, type RefundRun, type RunParams, type RunState } from "../lib/orders/runs";
import { secretsKeys } from "../lib/secrets";
import type { TenantName } from "../lib/tenant";
import { OrderBook } from "./order-book";

/** The answer to a webhook. */
export type WebhookAnswer =
  | { ok: true; status: 200 | 202; intake: Intake | "ping"; detail: string; run: OrderRunView | null }
  | { ok: false; status: 400 | 401 | 404; detail: string };

const secretKey = (source: Source) => `webhookSecret:${source}`;

/**
 * Which outcome answers a delivery that carried several events: a start over a cancellation over a
 * duplicate. A re-delivered event needs no rule of its own: its effect is in the book, so
 * `applyEvent` already calls it a duplicate.
 */
const rank = (i: Intake | "ping") => ["ignored", "ping", "duplicate", "cancelled", "started"].indexOf(i);

export class OrderDesk {
  readonly book: OrderBook;
  /** Whether the last `startPending` left runs without an instance (the object's alarm then tries again). */
  startsWaiting = false;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: Bindings,
    private readonly tenant: () => TenantName | null,
  ) {
    this.book = new OrderBook(storage.sql);
  }

  /** Seals and stores a source's webhook secret. */
  async setSecret(source: Source, secret: string): Promise<boolean> {
    const keys = await secretsKeys(this.env).catch(() => null);
    const tenant = this.tenant();
    if (!keys || !tenant) return false;
    await this.storage.put(secretKey(source), await seal(secret, keys[0], `webhook:${tenant}:${source}`));
    return true;
  }

  async #secret(source: Source): Promise<string | null> {
    const sealed = await this.storage.get<Sealed>(secretKey(source));
    const keys = sealed && (await secretsKeys(this.env).catch(() => null));
    const tenant = this.tenant();
    if (!sealed || !keys || !tenant) return null;
    const secret = await open(sealed, keys, `webhook:${tenant}:${source}`);
    // SECRETS_KEY rotation: re-sealed under the current key the first time it is opened.
    if (secret !== null && sealed.kid !== keys[0].kid) await this.storage.put(secretKey(source), await seal(secret, keys[0], `webhook:${tenant}:${source}`));
    return secret;
  }

  async setMapping(input: OrderMappingInput): Promise<OrderMapping> {
    await this.storage.put("orderMapping", input);
    return resolveMapping(input);
  }

  async mapping(): Promise<OrderMapping> {
    return resolveMapping((await this.storage.get<OrderMappingInput>("orderMapping")) ?? {});
  }

  /** Verifies, records and starts: the whole webhook intake. */
  async receive(source: Source, headers: Headers, body: Uint8Array, now = Date.now()): Promise<WebhookAnswer> {
    const adapter = ADAPTERS[source];
    const delivery = { headers, body };
    if (adapter.isPing?.(delivery)) return { ok: true, status: 200, intake: "ping", detail: "Ping answered; nothing was processed.", run: null };
    const secret = await this.#secret(source);
    if (secret === null) return { ok: false, status: 401, detail: `No ${source} webhook secret is set for this tenant; set it with PUT /admin/tenants/{environment}/{client}/webhooks/${source}.` };
    const verified = await adapter.verify(delivery, secret, now);
    if (!verified.ok) return { ok: false, status: verified.error.status, detail: verified.error.detail };
    // From here to the end of the intake: no await, so concurrent deliveries cannot interleave.
    const { eventId, signedAt } = verified.value;
    const seen = eventId === null ? null : this.book.lastDelivery(source, eventId);
    // A genuine retry is signed anew; the same signed timestamp again is somebody replaying it.
    if (seen !== null && signedAt !== null && signedAt <= seen) return { ok: false, status: 401, detail: "This delivery was already received with this signature; a replay is refused." };
    const parsed = adapter.parse(delivery);
    if (!parsed.ok) return { ok: false, status: parsed.error.status, detail: parsed.error.detail };
    if (eventId !== null) this.book.remember(source, eventId, signedAt, now);
    const at = new Date(now).toISOString();
    let answer: WebhookAnswer = { ok: true, status: 200, intake: "ignored", detail: "Nothing to do for this event.", run: null };
    for (const event of parsed.value) {
      if (event.kind === "ignored") {
        if (answer.intake === "ignored") answer = { ...answer, detail: event.reason };
        continue;
      }
      const orderId = event.kind === "paid" ? event.order.id : event.orderId;
      const { run, intake } = applyEvent(this.book.get(source, orderId), source, event, at);
      this.book.put(run);
      if (rank(intake) >= rank(answer.intake)) answer = { ok: true, status: intake === "duplicate" ? 200 : 202, intake, detail: describe(intake), run: publicView(run) };
    }
    await this.startPending();
    return answer;
  }

  /** Creates the Workflow instances of runs that have none yet; true when some are still waiting. */
  async startPending(): Promise<boolean> {
    const tenant = this.tenant();
    if (!tenant) return false;
    let waiting = false;
    for (const run of this.book.pending()) {
      for (const start of pendingStarts(run)) {
        const params: RunParams = { tenant, source: run.source, orderId: run.orderId, refundId: start.refundId };
        const id = await runInstanceId(params, start.attempt);
        try {
          await this.env.ORDER_TO_INVOICE.create({ id, params });
        } catch (e) {
          // The engine refuses a second instance with this id: it was created before, by us.
          if (!/already exists/i.test(String(e))) {
            waiting = true;
            continue;
          }
        }
        this.#update(run.source, run.orderId, start.refundId, (r, refund) => {
          if (refund) refund.started = true;
          else r.started = true;
        });
      }
    }
    this.startsWaiting = waiting;
    return waiting;
  }

  /** Changes an order's record, and with `refundId` one refund of it too, stamping the time. */
  #update(source: Source, orderId: string, refundId: string | null, change: (r: OrderRun, refund: RefundRun | null) => void): OrderRun | null {
    const current = this.book.get(source, orderId);
    if (!current) return null;
    const next: OrderRun = { ...current, steps: [...current.steps], refunds: current.refunds.map((x) => ({ ...x, steps: [...x.steps] })) };
    change(next, refundId === null ? null : (next.refunds.find((x) => x.refund.id === refundId) ?? null));
    next.updatedAt = new Date().toISOString();
    this.book.put(next);
    return next;
  }

  /** What a run reports: a step done (on the order, or on its refund), states and ids found. */
  report(source: Source, orderId: string, refundId: string | null, patch: RunPatch): OrderRun | null {
    return this.#update(source, orderId, refundId, (r, refund) => {
      // A refund's credit note may land before the invoice's settlement is booked: "credited" stays.
      const keep = r.state === "credited" && patch.order?.state === "settled";
      Object.assign(r, patch.order, keep ? { state: "credited" } : {});
      if (refund) Object.assign(refund, patch.refund);
      if (patch.step) (refund ?? r).steps.push(patch.step);
    });
  }

  /**
   * A failed order (or refund) gets a new attempt: a new Workflow instance, the steps' own
   * references keep it from duplicating anything. "nothing-failed" when there is nothing to retry.
   */
  async retry(source: Source, orderId: string): Promise<OrderRunView | null | "nothing-failed"> {
    const run = this.book.get(source, orderId);
    if (!run) return null;
    if (run.state !== "failed" && !run.refunds.some((x) => x.state === "failed")) return "nothing-failed";
    const next: OrderRun = { ...run, refunds: run.refunds.map((x) => (x.state === "failed" ? { ...x, state: "received", error: null, attempt: x.attempt + 1, started: false } : x)) };
    if (run.state === "failed" && run.order) Object.assign(next, { state: "received", error: null, attempt: run.attempt + 1, started: false });
    next.updatedAt = new Date().toISOString();
    this.book.put(next);
    await this.startPending();
    return this.view(source, orderId);
  }

  view(source: Source, orderId: string): OrderRunView | null {
    const r = this.book.get(source, orderId);
    return r && publicView(r);
  }

  list(state: RunState | null, limit: number): OrderRunView[] {
    return this.book.list(state, limit).map(publicView);
  }
}

/** A run's report: fields of the order's record, or of one refund's, and a finished step. */
export interface RunPatch {
  order?: Partial<Pick<OrderRun, "state" | "customer" | "products" | "salesOrderId" | "salesOrderNo" | "invoiceNo" | "error">>;
  refund?: Partial<Pick<RefundRun, "state" | "creditNoteNo" | "error">>;
  step?: OrderRun["steps"][number];
}

function describe(intake: Intake): string {
  switch (intake) {
    case "started":
      return "The order's run is recorded and started.";
    case "duplicate":
      return "Already received: this is the existing run; nothing new was started.";
    case "cancelled":
      return "The cancellation is recorded.";
    default:
      return "Nothing to do for this event.";
  }
}
