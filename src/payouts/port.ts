/**
 * @module
 * All a payout's run sees of its tenant's object: the task (matched and claimed inside the
 * object), a place to report, remembered account ids. Bound to the registration the run was
 * started under: once that is gone, the run reads and writes nothing.
 */
import type { SettlementIds } from "../orders/port";
import type { PayoutLine, PayoutSource } from "./payout";
import type { BookingPlan } from "./plan";
import type { PayoutIssue, PayoutPatch, PayoutVoucher } from "./records";

/** What the attempt is to do, as the object decided it when the run asked. */
export type PayoutTask =
  /** Every line matched and its orders are claimed: post this voucher. */
  | { kind: "book"; plan: BookingPlan }
  | { kind: "unmatched"; issues: PayoutIssue[]; issueCount: number }
  /** The payout failed after its run began: reverse its voucher, if one was posted. */
  | { kind: "reverse"; voucher: PayoutVoucher | null; date: string }
  /** No longer the payout's current attempt (or the payout is gone): stop. */
  | { kind: "stale" }
  /** Read the lines from Stripe first (`payoutRead` then). */
  | { kind: "read"; amount: number; currency: string }
  /** Not itemised by Stripe: read the clearing balance to show beside it; nothing is booked. */
  | { kind: "balance"; accountNo: number; date: string; currency: string };

export type LedgerRead =
  /** `read`: transactions read, the payout's own included. */
  { kind: "lines"; lines: PayoutLine[]; read: number } | { kind: "not-itemised"; reason: string };

export interface KnownAccount {
  accountNo: number;
  ids: SettlementIds;
}

export interface PayoutRunPort {
  /** Matches the lines and, when all match, claims their orders; else records the issues. */
  payoutTask(source: PayoutSource, payoutId: string, attempt: number): Promise<PayoutTask>;
  /** Records a step, a state or the voucher on `attempt` (ignored for another attempt). */
  payoutReport(
    source: PayoutSource,
    payoutId: string,
    attempt: number,
    patch: PayoutPatch,
  ): Promise<void>;
  knownAccounts(accountNos: number[]): Promise<KnownAccount[]>;
  learnAccounts(found: KnownAccount[]): Promise<void>;
  /** Takes what was read of a Stripe payout and answers what follows, as `payoutTask` does. */
  payoutRead(
    source: PayoutSource,
    payoutId: string,
    attempt: number,
    read: LedgerRead,
  ): Promise<PayoutTask>;
  /** The Stripe key (null: none). Call it inside a step, never return it: results are stored. */
  stripeKey(): Promise<string | null>;
}
