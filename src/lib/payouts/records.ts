/**
 * @module
 * The record of one payout's reconciliation, as the tenant's object keeps it, and how each payout
 * event changes it. Pure: the object stores what these functions return in the same synchronous
 * stretch as it read the record, so two deliveries of one payout never start two runs.
 *
 * A payout's states: `received` (recorded, its run to start), `running`, `unmatched` (its lines do
 * not all match this tenant's settled orders, or do not add up to the deposit: nothing posted, the
 * issues named, waiting for a retry or a corrected delivery), `booked` (its one bank voucher is
 * posted), `failed` (the run failed: the API refused or kept failing), `reversing` and `reversed`
 * (`payout.failed` after booking: the voucher is reversed), `cancelled` (`payout.failed` before
 * anything was posted).
 */
import { z } from "zod";
import { sha256Hex } from "../crypto";
import { Source } from "../orders/order";
import { StepRecord } from "../orders/runs";
import type { TenantName } from "../stubs";
import { Payout, type PayoutEvent } from "./payout";

/** Where a payout stands. */
export const PayoutState = z.enum([
  "received",
  "running",
  "unmatched",
  "booked",
  "failed",
  "reversing",
  "reversed",
  "cancelled",
]);
export type PayoutState = z.output<typeof PayoutState>;

/** Why a payout does not match: one code per kind of mismatch (`docs/payouts.md`). */
export const IssueReason = z.enum([
  "no-order",
  "unknown-order",
  "unknown-refund",
  "not-settled",
  "settled-to-bank",
  "amount-differs",
  "duplicate-line",
  "in-other-payout",
  "deposit-differs",
  "too-many-rates",
]);
export type IssueReason = z.output<typeof IssueReason>;

/** One thing that keeps a payout from being booked, naming its line (null: the payout's own). */
export const PayoutIssue = z.object({
  line: z.int().nullable(),
  orderId: z.string().nullable(),
  refundId: z.string().nullable(),
  reason: IssueReason,
  detail: z.string(),
});
export type PayoutIssue = z.output<typeof PayoutIssue>;

/**
 * The payout's voucher: its reference and bank account, set when the run plans it (before it
 * posts), and its id and number once the API answered them.
 */
export const PayoutVoucher = z.object({
  reference: z.string(),
  bankAccount: z.int(),
  id: z.string().nullable(),
  number: z.int().nullable(),
});
export type PayoutVoucher = z.output<typeof PayoutVoucher>;

/** Everything the gateway knows about one payout. */
export const PayoutRecord = z.object({
  source: Source,
  payoutId: z.string(),
  payout: Payout,
  state: PayoutState,
  receivedAt: z.string(),
  updatedAt: z.string(),
  /** `payout.paid` and `payout.failed` deliveries of this payout. */
  deliveries: z.int(),
  attempt: z.int(),
  /** Whether the Workflow instance of the current attempt exists (false: the alarm starts it). */
  started: z.boolean(),
  /** When the provider said the payout failed, and why; null while it stands. */
  failed: z.object({ at: z.string(), reason: z.string().nullable() }).nullable(),
  /** What keeps it from being booked (at most `MAX_ISSUES`), and how many there are in all. */
  issues: z.array(PayoutIssue),
  issueCount: z.int(),
  voucher: PayoutVoucher.nullable(),
  error: z.object({ step: z.string(), detail: z.string() }).nullable(),
  steps: z.array(StepRecord),
});
export type PayoutRecord = z.output<typeof PayoutRecord>;

/** Issues kept on a record: enough to act on; the count says how many more there are. */
export const MAX_ISSUES = 200;

/** What a delivery did to the record. */
export type PayoutIntake = "started" | "duplicate" | "cancelled" | "ignored";

/** States a `payout.paid` with other lines may replace the payout in: nothing of it is posted. */
const REPLACEABLE: readonly PayoutState[] = ["received", "unmatched", "failed"];

function blank(source: Source, payout: Payout, at: string): PayoutRecord {
  return {
    source,
    payoutId: payout.id,
    payout,
    state: "received",
    receivedAt: at,
    updatedAt: at,
    deliveries: 0,
    attempt: 1,
    started: false,
    failed: null,
    issues: [],
    issueCount: 0,
    voucher: null,
    error: null,
    steps: [],
  };
}

/** A new attempt of `r` in `state`, its run to start. */
function again(r: PayoutRecord, state: "received" | "reversing"): PayoutRecord {
  return { ...r, state, attempt: r.attempt + 1, started: false, error: null };
}

/**
 * Applies one payout event to its record (null: none yet). Returns the new record (null: nothing
 * to store), what happened, and a sentence for the webhook's answer.
 */
export function applyPayoutEvent(
  record: PayoutRecord | null,
  source: Source,
  event: PayoutEvent,
  at: string,
): { record: PayoutRecord | null; intake: PayoutIntake; detail: string } {
  if (event.kind === "payout-paid") {
    const p = event.payout;
    if (!record)
      return {
        record: { ...blank(source, p, at), deliveries: 1 },
        intake: "started",
        detail: `Payout ${p.id} is recorded and its reconciliation started.`,
      };
    const r = { ...record, deliveries: record.deliveries + 1, updatedAt: at };
    if (JSON.stringify(record.payout) === JSON.stringify(p))
      return {
        record: r,
        intake: "duplicate",
        detail: `Payout ${p.id} was received before: nothing new was started.`,
      };
    // Other lines: the sender corrected the payout. Taken while nothing of it is posted; a booked
    // payout is changed only by payout.failed (its voucher reversed) and a payout under a new id.
    if (r.failed || !REPLACEABLE.includes(r.state))
      return {
        record: r,
        intake: "ignored",
        detail: `Payout ${p.id} is ${r.state}: a payout that differs from it is not taken. Send payout.failed to reverse a booked payout, and its replacement under a new id.`,
      };
    const replaced = { ...r, payout: p, issues: [], issueCount: 0 };
    return {
      record:
        record.state === "received" && !record.started ? replaced : again(replaced, "received"),
      intake: "started",
      detail: `Payout ${p.id} is replaced by this delivery and reconciled again.`,
    };
  }
  if (!record)
    return {
      record: null,
      intake: "ignored",
      detail: `No payout ${event.payoutId} has reached this tenant; nothing to reverse.`,
    };
  const r = {
    ...record,
    deliveries: record.deliveries + 1,
    updatedAt: at,
    failed: record.failed ?? { at: event.at, reason: event.reason },
  };
  if (record.failed)
    return { record: r, intake: "duplicate", detail: `Payout ${record.payoutId} failed before.` };
  // Nothing can have been posted: the run never started.
  if (record.state === "received" && !record.started)
    return {
      record: { ...r, state: "cancelled" },
      intake: "cancelled",
      detail: `Payout ${record.payoutId} is cancelled; nothing was booked.`,
    };
  // A run under way finishes first; its report then turns the payout to reversing (`afterRun`).
  if (record.state === "running" || record.state === "reversing")
    return {
      record: r,
      intake: "started",
      detail: `Payout ${record.payoutId} failed: its voucher is reversed once the run under way ends.`,
    };
  return {
    record: again(r, "reversing"),
    intake: "started",
    detail: `Payout ${record.payoutId} failed: its voucher, if any, is being reversed.`,
  };
}

/**
 * What follows a run's end, given the record it reported into: a payout that failed meanwhile is
 * reversed (a new attempt), or, if the run just reversed or cancelled, nothing.
 */
export function afterRun(r: PayoutRecord): PayoutRecord {
  const ended = r.state === "booked" || r.state === "unmatched" || r.state === "failed";
  return r.failed && ended ? again(r, "reversing") : r;
}

/** Whether the record's current attempt still needs its Workflow instance. */
export const needsStart = (r: PayoutRecord) =>
  !r.started && (r.state === "received" || r.state === "reversing");

/** What a payout run's Workflow instance is told: which tenant's which payout. Nothing secret. */
export interface PayoutParams {
  tenant: TenantName;
  /** The tenant's registration the run belongs to: a run never outlives it. */
  registration: string;
  source: Source;
  payoutId: string;
  attempt: number;
}

/**
 * The Workflow instance id of a payout's attempt: derived, so a second start of one attempt is
 * refused by the engine ("already exists"), a retry gets an instance of its own, and so does the
 * same payout after the tenant was registered again. Hashed: payout ids may hold characters
 * instance ids may not.
 */
export async function payoutInstanceId(p: PayoutParams): Promise<string> {
  const hex = await sha256Hex(JSON.stringify([p.tenant, p.registration, p.source, p.payoutId]));
  return `p-${hex.slice(0, 40)}-${p.attempt}`;
}

/** A payout run's report: its state and what it found, and a finished step. */
export interface PayoutPatch {
  state?: PayoutState;
  issues?: PayoutIssue[];
  issueCount?: number;
  voucher?: PayoutVoucher | null;
  error?: PayoutRecord["error"];
  step?: StepRecord;
}
