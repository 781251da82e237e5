/**
 * @module
 * The record of one order's runs, as the tenant's object keeps it, and how each webhook event
 * changes it. Pure: the object stores what these functions return, in the same synchronous
 * stretch as it read the record, so two deliveries of one order can never both start a run.
 */
import { z } from "zod";
import { sha256Hex } from "../kernel/crypto";
import { Order, Refund, Source, type OrderEvent } from "./order";
import type { TenantName } from "../kernel/stubs";

/** Where an order stands. */
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
/** Where one refund stands. */
export const RefundState = z.enum(["received", "running", "credited", "failed", "skipped"]);
export type RefundState = z.output<typeof RefundState>;

/**
 * One value of a step's result: flat on purpose. It crosses RPC and is stored as JSON, and a
 * recursive JSON type makes the RPC stub types of the tenant's object too deep for the compiler.
 */
export const StepValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number()])),
]);
export type StepValue = z.output<typeof StepValue>;

/** One finished step: when, whether it succeeded, what it found or did. */
export const StepRecord = z.object({
  name: z.string(),
  at: z.string(),
  ok: z.boolean(),
  result: z.record(z.string(), StepValue),
});
export type StepRecord = z.output<typeof StepRecord>;

/**
 * Where and when a settlement step posted: the account the money waits on (a clearing account, or
 * the bank) and the voucher's date. A payout credits exactly that account (`docs/payouts.md`).
 * Runs settled before it was recorded have none (null).
 */
export const Settlement = z.object({ accountNo: z.int(), date: z.string() });
export type Settlement = z.output<typeof Settlement>;

/** A refund's own run. */
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
  /**
   * Whether the Workflow instance of the current attempt exists (false: the object's alarm starts
   * it).
   */
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

/** Whether the order's invoice went out. */
export const invoiced = (r: OrderRun) => r.invoiceNo !== null;

/**
 * Applies one event to the order's record (null: none yet). Returns the new record and what
 * happened.
 */
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
      // The shop sent it again, usable now (an order that came unusable has a failed record and no
      // order).
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
      // Not yet running: nothing was written upstream, so the order simply stops here. A running
      // order stops at its next checkpoint; an invoiced one is credited by the shop's refund
      // webhook.
      if (!r.order || (r.state === "received" && !r.started)) r.state = "cancelled";
      // A failed run may have left a draft sales order: a new attempt withdraws it before the
      // order reads "cancelled" (see the run's "withdraw" step). An invoiced one keeps its state.
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
 * Runs whose Workflow instance must still be created: the order's own, and refunds'. A refund
 * starts once its run has something to do: the order's invoice to credit, a cancelled order to
 * skip, or (no order yet) the order to wait for. While the order's own run is under way, or has
 * failed, without an invoice, the refund waits unstarted, so nothing of it is lost or given up on a
 * timeout: the report of the invoice (after the order's retry, if it failed) starts it.
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

/**
 * What an order run's Workflow instance is told: which tenant's which order (and refund). Nothing
 * secret.
 */
export interface RunParams {
  tenant: TenantName;
  /** The tenant's registration the run belongs to: a run never outlives it (see `OrderRunPort`). */
  registration: string;
  source: Source;
  orderId: string;
  refundId: string | null;
}

/**
 * The Workflow instance id of a run: derived from tenant, registration, source, order (and refund)
 * and the attempt, so a second start of the same attempt is refused by the engine itself ("already
 * exists"), a retry by the operator gets an instance of its own, and so does the same order after
 * the tenant was removed and registered again. Hashed, because shop ids
 * may hold characters instance ids may not, and ids are limited to 100 characters.
 */
export async function runInstanceId(p: RunParams, attempt: number): Promise<string> {
  const hex = await sha256Hex(
    JSON.stringify([p.tenant, p.registration, p.source, p.orderId, p.refundId]),
  );
  return `${p.refundId === null ? "o" : "r"}-${hex.slice(0, 40)}-${attempt}`;
}
