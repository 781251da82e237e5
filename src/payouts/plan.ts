/** @module What the matcher reads (settled orders) and answers (the plan of one voucher). */
import type { Settlement } from "../orders/runs";
import type { PayoutIssue } from "./records";

/** An order's (or a refund's) settlement: its money and where it waits. */
export interface Settled {
  currency: string;
  /** The order's total, or the refund's (positive). */
  total: number;
  settlement: Settlement;
}

export interface OrderFacts {
  /** Null while the order is not settled (or the mapping does not settle). */
  settled: Settled | null;
  refunds: Record<string, Settled | null>;
}

export interface MatchLookup {
  order(orderId: string): OrderFacts | null;
  /** The other payout that holds this order (refundId null) or refund, or null. */
  claimedBy(orderId: string, refundId: string | null): string | null;
  /** The order a line's `paymentRef` paid, or null. */
  orderOfPayment?(paymentRef: string): string | null;
}

/** Money that left one clearing account in one currency (on a day, when rates apply). */
export interface ClearingCredit {
  accountNo: number;
  currency: string;
  /** Null when the voucher is in one currency. */
  date: string | null;
  amount: number;
  orders: number;
  refunds: number;
}

export interface BookingPlan {
  reference: string;
  date: string;
  currency: string;
  description: string;
  deposit: number;
  bankAccount: number;
  clearing: ClearingCredit[];
  /** Fees (the lines' and the fee lines'), adjustments and disputes: debits, as costs. */
  fees: number;
  adjustments: number;
  disputes: number;
  feeAccount: number;
  feeVatCode: string;
  adjustmentAccount: number;
  disputeAccount: number;
  gainAccount: number;
  lossAccount: number;
  /** None when every line is in the payout's currency. */
  rates: { currency: string; date: string }[];
}

export interface Claim {
  orderId: string;
  refundId: string | null;
}

export type MatchResult =
  | { kind: "matched"; plan: BookingPlan; claims: Claim[] }
  | { kind: "unmatched"; issues: PayoutIssue[]; issueCount: number };
