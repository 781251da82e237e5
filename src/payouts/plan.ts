/**
 * @module
 * What the matcher (`match.ts`) reads and answers: the book's facts of a settled order or refund,
 * and the plan of a payout's one voucher (`voucher.ts` builds it, the run posts it).
 */
import type { Settlement } from "../orders/runs";
import type { PayoutIssue } from "./records";

/** What the book knows of an order's (or a refund's) settlement: its money and where it waits. */
export interface Settled {
  currency: string;
  /** What was settled: the order's total, or the refund's (positive). */
  total: number;
  settlement: Settlement;
}

/** An order as the matcher sees it: settled or not, and its refunds. */
export interface OrderFacts {
  /** Null while the order is not settled (or the mapping does not settle). */
  settled: Settled | null;
  refunds: Record<string, Settled | null>;
}

/** What the matcher reads from the tenant's book. */
export interface MatchLookup {
  order(orderId: string): OrderFacts | null;
  /** The other payout that holds this order (refundId null) or refund, or null. */
  claimedBy(orderId: string, refundId: string | null): string | null;
  /** The order a provider's payment reference paid (a line's `paymentRef`), or null. */
  orderOfPayment?(paymentRef: string): string | null;
}

/** One credit of the clearing account(s): money that left one account in one currency on a day. */
export interface ClearingCredit {
  accountNo: number;
  currency: string;
  /** The settlement day whose rate values it; null when the voucher is in one currency. */
  date: string | null;
  amount: number;
  orders: number;
  refunds: number;
}

/** The one bank voucher of a payout, planned. */
export interface BookingPlan {
  reference: string;
  date: string;
  currency: string;
  description: string;
  deposit: number;
  bankAccount: number;
  clearing: ClearingCredit[];
  /** Fees (the lines' fees and the fee lines), adjustments and disputes: debits, as costs. */
  fees: number;
  adjustments: number;
  disputes: number;
  feeAccount: number;
  feeVatCode: string;
  adjustmentAccount: number;
  disputeAccount: number;
  gainAccount: number;
  lossAccount: number;
  /** The rates to look up (currency, day), none when every line is in the payout's currency. */
  rates: { currency: string; date: string }[];
}

/** A matched order or refund, to claim for the payout. */
export interface Claim {
  orderId: string;
  refundId: string | null;
}

/** The matcher's answer. */
export type MatchResult =
  | { kind: "matched"; plan: BookingPlan; claims: Claim[] }
  | { kind: "unmatched"; issues: PayoutIssue[]; issueCount: number };
