/**
 * @module
 * The record of one order's runs and how each webhook event changes it. Pure: the object stores
 * what these return in the stretch it read the record in. See docs/design/order-runs.md.
 */
import { z } from "zod";
import { sha256Hex } from "../kernel/crypto";
import { Order, Refund, Source, type OrderEvent } from "./order";
import type { TenantName } from "../kernel/stubs";
import { Provider } from "../ledger/providers";

export const RunState = z.enum([
  "received",
  "running",
  "invoiced",
  "settled",
  "credited",
  "cancelled",
  "failed",
]);
export type RunState = z.output<typeof RunState>;
export const RefundState = z.enum(["received", "running", "credited", "failed", "skipped"]);
export type RefundState = z.output<typeof RefundState>;

/** One value of a step's result: flat, since a recursive type is too deep for the RPC stubs. */
export const StepValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number()])),
]);
export type StepValue = z.output<typeof StepValue>;

export const StepRecord = z.object({
  name: z.string(),
  at: z.string(),
  ok: z.boolean(),
  result: z.record(z.string(), StepValue),
});
export type StepRecord = z.output<typeof StepRecord>;

/**
 * The account and day a settlement posted to, which the payout credits (`docs/payouts.md`), and
 * whose money it is (absent for settlements from before providers were told apart).
 */
export const Settlement = z.object({
  accountNo: z.int(),
  date: z.string(),
  provider: Provider.optional(),
});
export type Settlement = z.output<typeof Settlement>;

export const RefundRun = z.object({
  refund: Refund,
  state: RefundState,
  creditNoteNo: z.int().nullable(),
  steps: z.array(StepRecord),
  error: z.string().nullable(),
  attempt: z.int(),
  started: z.boolean(),
  settlement: Settlement.nullable().default(null),
});
export type RefundRun = z.output<typeof RefundRun>;

/** Everything the gateway knows about one shop order. */
export const OrderRun = z.object({
  source: Source,
  orderId: z.string(),
  /** Null while only a cancellation or a refund of the order has arrived. */
  order: Order.nullable(),
  state: RunState,
  receivedAt: z.string(),
  updatedAt: z.string(),
  deliveries: z.int(),
  cancelledAt: z.string().nullable(),
  customer: z
    .object({
      id: z.int(),
      number: z.int().nullable(),
      subledgerAccountId: z.int(),
      created: z.boolean(),
    })
    .nullable(),
  products: z.record(z.string(), z.string()).nullable(),
  salesOrderId: z.string().nullable(),
  salesOrderNo: z.int().nullable(),
  invoiceNo: z.int().nullable(),
  steps: z.array(StepRecord),
  error: z.object({ step: z.string(), detail: z.string() }).nullable(),
  attempt: z.int(),
  /** Whether the current attempt's instance exists (false: the alarm starts it). */
  started: z.boolean(),
  refunds: z.array(RefundRun),
  settlement: Settlement.nullable().default(null),
});
export type OrderRun = z.output<typeof OrderRun>;

/** What a delivery did to the record ("failed": an unusable order, recorded as a failed run). */
export type Intake = "started" | "duplicate" | "cancelled" | "failed" | "ignored";

function blank(source: Source, orderId: string, at: string): OrderRun {
  return {
    source,
    orderId,
    order: null,
    state: "received",
    receivedAt: at,
    updatedAt: at,
    deliveries: 0,
    cancelledAt: null,
    customer: null,
    products: null,
    salesOrderId: null,
    salesOrderNo: null,
    invoiceNo: null,
    steps: [],
    error: null,
    attempt: 1,
    started: false,
    refunds: [],
    settlement: null,
  };
}

export const invoiced = (r: OrderRun) => r.invoiceNo !== null;

/** Applies one event to the order's record (null: none yet): the new record and what happened. */
export function applyEvent(
  run: OrderRun | null,
  source: Source,
  event: Exclude<OrderEvent, { kind: "ignored" } | { kind: "payout" } | { kind: "payment" }>,
  at: string,
): { run: OrderRun; intake: Intake } {
  const orderId = event.kind === "paid" ? event.order.id : event.orderId;
  const r: OrderRun = run ? { ...run, refunds: [...run.refunds] } : blank(source, orderId, at);
  r.deliveries++;
  r.updatedAt = at;
  switch (event.kind) {
    case "paid":
      if (r.order) return { run: r, intake: "duplicate" };
      r.order = event.order;
      if (r.state === "cancelled") return { run: r, intake: "duplicate" };
      // Sent again, usable now (an unusable one left a failed record with no order).
      if (r.state === "failed") Object.assign(r, { state: "received", error: null });
      return { run: r, intake: "started" };
    case "unusable":
      // A usable order already recorded, or a cancelled one, stays as it is.
      if (r.order || r.state === "cancelled") return { run: r, intake: "duplicate" };
      Object.assign(r, { state: "failed", error: { step: "intake", detail: event.reason } });
      return { run: r, intake: "failed" };
    case "cancelled":
      if (r.cancelledAt) return { run: r, intake: "duplicate" };
      r.cancelledAt = event.at;
      // Not yet running: nothing was written upstream. A running order stops at its next check.
      if (!r.order || (r.state === "received" && !r.started)) r.state = "cancelled";
      // A failed run may have left a draft: a new attempt withdraws it (step "withdraw").
      else if (r.state === "failed" && r.invoiceNo === null)
        Object.assign(r, {
          state: "received",
          error: null,
          attempt: r.attempt + 1,
          started: false,
        });
      return { run: r, intake: "cancelled" };
    case "refunded": {
      if (r.refunds.some((x) => x.refund.id === event.refund.id))
        return { run: r, intake: "duplicate" };
      r.refunds.push({
        refund: event.refund,
        state: "received",
        creditNoteNo: null,
        steps: [],
        error: null,
        attempt: 1,
        started: false,
        settlement: null,
      });
      return { run: r, intake: "started" };
    }
  }
}

/**
 * Runs whose instance must still be created: the order's, and refunds'. While the order's run is
 * under way or failed without an invoice, its refunds wait unstarted; the invoice starts them.
 */
export function pendingStarts(r: OrderRun): { refundId: string | null; attempt: number }[] {
  const out: { refundId: string | null; attempt: number }[] = [];
  if (r.order && !r.started && r.state === "received")
    out.push({ refundId: null, attempt: r.attempt });
  const underway = r.state === "received" || r.state === "running" || r.state === "failed";
  if (r.order && r.invoiceNo === null && underway) return out;
  for (const x of r.refunds)
    if (!x.started && x.state === "received")
      out.push({ refundId: x.refund.id, attempt: x.attempt });
  return out;
}

/**
 * Runs whose instance exists and has not ended: the order's, and refunds' under way. The alarm
 * revives one that stays silent (`OrderDesk.revive`).
 */
export function liveRuns(r: OrderRun): { refundId: string | null; attempt: number }[] {
  const out: { refundId: string | null; attempt: number }[] = [];
  const underway = r.state === "received" || r.state === "running" || r.state === "invoiced";
  if (r.order && r.started && underway) out.push({ refundId: null, attempt: r.attempt });
  for (const x of r.refunds)
    if (x.started && (x.state === "received" || x.state === "running"))
      out.push({ refundId: x.refund.id, attempt: x.attempt });
  return out;
}

/** A run's report: fields of the order's record, or of one refund's, and a finished step. */
export interface RunPatch {
  order?: Partial<
    Pick<
      OrderRun,
      | "state"
      | "customer"
      | "products"
      | "salesOrderId"
      | "salesOrderNo"
      | "invoiceNo"
      | "error"
      | "settlement"
    >
  >;
  refund?: Partial<Pick<RefundRun, "state" | "creditNoteNo" | "error" | "settlement">>;
  step?: OrderRun["steps"][number];
}

/** What an order run's instance is told: which tenant's which order (and refund); no secret. */
export interface RunParams {
  tenant: TenantName;
  /** The tenant's registration the run belongs to: a run never outlives it (see `OrderRunPort`). */
  registration: string;
  source: Source;
  orderId: string;
  refundId: string | null;
}

/**
 * The instance id of a run attempt, hashed from what names it: the engine refuses a second start
 * of one attempt, and a retry or a new registration gets its own. See docs/design/order-runs.md.
 */
export async function runInstanceId(p: RunParams, attempt: number): Promise<string> {
  const hex = await sha256Hex(
    JSON.stringify([p.tenant, p.registration, p.source, p.orderId, p.refundId]),
  );
  return `${p.refundId === null ? "o" : "r"}-${hex.slice(0, 40)}-${attempt}`;
}
