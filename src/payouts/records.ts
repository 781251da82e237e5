/**
 * @module
 * The record of one payout's reconciliation, as the tenant's object keeps it (how each payout event
 * changes it: `intake.ts`), the instance id of its runs and what they report.
 *
 * A payout's states: `received` (recorded, its run to start), `running`, `unmatched` (its lines do
 * not all match this tenant's settled orders, do not add up to the deposit, or pay out no order:
 * nothing posted, the issues named, waiting for a retry, a corrected delivery or, when it pays out
 * no order, the operator's confirmation), `booked` (its one bank voucher is posted), `failed` (the
 * run failed: the API refused or kept failing), `reversing` and `reversed` (`payout.failed` after
 * booking: the voucher is reversed), `cancelled` (`payout.failed` before anything was posted). A
 * payout read from Stripe may also be `waiting` (Stripe has not finished its lines), `needs-key`
 * (no Stripe key, or Stripe refused it: nothing read, nothing posted) or `not-itemised` (a manual
 * or instant payout: recorded with the reason, never booked).
 */
import { z } from "zod";
import { sha256Hex } from "../kernel/crypto";
import { Source } from "../orders/order";
import { StepRecord } from "../orders/runs";
import type { TenantName } from "../kernel/stubs";
import { Payout } from "./payout";

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
  "waiting",
  "needs-key",
  "not-itemised",
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
  "needs-orders",
  "other-source",
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

/**
 * What the gateway knows of a payout it reads from Stripe: how Stripe made it, whether its lines
 * were read, and for one Stripe cannot itemise, why, and the clearing account's balance instead.
 */
export const StripeFacts = z.object({
  automatic: z.boolean(),
  method: z.string(),
  reconciliation: z.enum(["completed", "in_progress", "not_applicable"]),
  /** Balance transactions read for its lines (its own included); null until they are read. */
  linesRead: z.int().nullable(),
  /** Why Stripe cannot itemise it (a manual or instant payout); null when it can. */
  notItemised: z.string().nullable(),
  /** The clearing account's balance on the arrival date (minor units), read instead of lines. */
  clearing: z
    .object({ accountNo: z.int(), balance: z.int(), asOf: z.iso.date(), currency: z.string() })
    .nullable(),
});
export type StripeFacts = z.output<typeof StripeFacts>;

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
  /** A payout read from Stripe (null for one whose lines came in its event). */
  stripe: StripeFacts.nullable().default(null),
  /**
   * Who accepted that it pays out no order, and when (`rules.ts`, `needs-orders`): only the
   * operator. Absent until then, and again once other lines replace the ones accepted. Optional, so
   * rows stored before it read as unconfirmed.
   */
  confirmedBy: z.literal("operator").optional(),
  confirmedAt: z.string().optional(),
});
export type PayoutRecord = z.output<typeof PayoutRecord>;

/** A new record of `payout`, received at `at`, its run to start. */
export function blank(source: Source, payout: Payout, at: string): PayoutRecord {
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
    stripe: null,
  };
}

/** A new attempt of `r` in `state`, its run to start. */
export function again(r: PayoutRecord, state: "received" | "reversing"): PayoutRecord {
  return { ...r, state, attempt: r.attempt + 1, started: false, error: null };
}

/** Issues kept on a record: enough to act on; the count says how many more there are. */
export const MAX_ISSUES = 200;

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
  /** A Stripe payout's clearing balance, read instead of its lines (kept in its `stripe`). */
  clearing?: StripeFacts["clearing"];
}
