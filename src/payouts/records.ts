/**
 * @module
 * The record of one payout's reconciliation as the tenant's object keeps it, the instance id of
 * its runs and what they report. Its states are described in docs/payouts.md.
 */
import { z } from "zod";
import { sha256Hex } from "../kernel/crypto";
import { StepRecord } from "../orders/runs";
import type { TenantName } from "../kernel/stubs";
import { Payout, PayoutSource } from "./payout";

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

/** Why a payout does not match: one code per kind of mismatch. */
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
  "unknown-entry",
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

/** The voucher's reference and bank account, set before it posts; its id and number after. */
export const PayoutVoucher = z.object({
  reference: z.string(),
  bankAccount: z.int(),
  id: z.string().nullable(),
  number: z.int().nullable(),
});
export type PayoutVoucher = z.output<typeof PayoutVoucher>;

/** What the gateway knows of a payout it reads from Stripe. */
export const StripeFacts = z.object({
  automatic: z.boolean(),
  method: z.string(),
  reconciliation: z.enum(["completed", "in_progress", "not_applicable"]),
  /** Balance transactions read for its lines (its own included); null until they are read. */
  linesRead: z.int().nullable(),
  /** Why Stripe cannot itemise it; null when it can. */
  notItemised: z.string().nullable(),
  /** The clearing account's balance on the arrival date, read instead of lines. */
  clearing: z
    .object({ accountNo: z.int(), balance: z.int(), asOf: z.iso.date(), currency: z.string() })
    .nullable(),
});
export type StripeFacts = z.output<typeof StripeFacts>;

/** What the gateway knows of a payout it read from a Vipps MobilePay ledger. */
export const VippsFacts = z.object({
  ledgerId: z.string(),
  /** The ledger dates whose rows it pays out: earlier ones when their balance was carried. */
  dates: z.array(z.iso.date()),
  /** The balance its date began with: negative when an earlier date's was carried and is repaid. */
  carriedIn: z.int(),
  /** Gross settlement: the fees of its captures, left for Vipps's monthly invoice, not booked. */
  feesInvoiced: z.int(),
});
export type VippsFacts = z.output<typeof VippsFacts>;

export const PayoutRecord = z.object({
  source: PayoutSource,
  payoutId: z.string(),
  payout: Payout,
  state: PayoutState,
  receivedAt: z.string(),
  updatedAt: z.string(),
  deliveries: z.int(),
  attempt: z.int(),
  /** Whether the current attempt's Workflow instance exists (false: the alarm starts it). */
  started: z.boolean(),
  /** When the provider said the payout failed, and why. */
  failed: z.object({ at: z.string(), reason: z.string().nullable() }).nullable(),
  /** At most `MAX_ISSUES`; `issueCount` counts them all. */
  issues: z.array(PayoutIssue),
  issueCount: z.int(),
  voucher: PayoutVoucher.nullable(),
  error: z.object({ step: z.string(), detail: z.string() }).nullable(),
  steps: z.array(StepRecord),
  /** Null for a payout whose lines came in its event. */
  stripe: StripeFacts.nullable().default(null),
  /** Null but for a payout read from a Vipps ledger. */
  vipps: VippsFacts.nullable().default(null),
  /**
   * The operator's acceptance that it pays out no order; cleared when other lines replace the
   * ones accepted. Optional, so older rows read as unconfirmed.
   */
  confirmedBy: z.literal("operator").optional(),
  confirmedAt: z.string().optional(),
});
export type PayoutRecord = z.output<typeof PayoutRecord>;

export function blank(source: PayoutSource, payout: Payout, at: string): PayoutRecord {
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
    vipps: null,
  };
}

export function again(r: PayoutRecord, state: "received" | "reversing"): PayoutRecord {
  return { ...r, state, attempt: r.attempt + 1, started: false, error: null };
}

/** Issues kept on a record: enough to act on. */
export const MAX_ISSUES = 200;

/** What a payout run's Workflow instance is told. Nothing secret. */
export interface PayoutParams {
  tenant: TenantName;
  /** A run never outlives the registration it belongs to. */
  registration: string;
  source: PayoutSource;
  payoutId: string;
  attempt: number;
}

/**
 * A payout attempt's instance id: derived, so the engine refuses a second start of one attempt.
 * Hashed: payout ids may hold characters instance ids may not.
 */
export async function payoutInstanceId(p: PayoutParams): Promise<string> {
  const hex = await sha256Hex(JSON.stringify([p.tenant, p.registration, p.source, p.payoutId]));
  return `p-${hex.slice(0, 40)}-${p.attempt}`;
}

export interface PayoutPatch {
  state?: PayoutState;
  issues?: PayoutIssue[];
  issueCount?: number;
  voucher?: PayoutVoucher | null;
  error?: PayoutRecord["error"];
  step?: StepRecord;
  /** A Stripe payout's clearing balance, read instead of its lines. */
  clearing?: StripeFacts["clearing"];
}
