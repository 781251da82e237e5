/**
 * @module
 * One provider payout, normalized: the deposit that reached the bank and the lines it is made of.
 * Amounts are integers of minor units (see `ledger/money.ts`), signed as the provider's ledger
 * signs them: a line's `amount` is gross (charges positive; refunds, fees and losses negative) and
 * its `fee` is the provider's fee on it, a cost (positive; a fee given back is negative). The
 * deposit is the sum of `amount − fee` over the lines when the payout is whole; when it is not,
 * its reconciliation says so and books nothing (`match.ts`).
 */
import { z } from "zod";
import { Source } from "../orders/order";

/** What a line of a payout is. */
export const PayoutLineType = z.enum(["charge", "refund", "fee", "adjustment", "dispute"]);
export type PayoutLineType = z.output<typeof PayoutLineType>;

/** One line of a payout. */
export const PayoutLine = z.object({
  type: PayoutLineType,
  /** The shop's order a charge or refund is for (an adjustment or dispute may name one too). */
  orderId: z.string().nullable(),
  /** The shop's refund a refund line is for. */
  refundId: z.string().nullable(),
  amount: z.int(),
  fee: z.int(),
  /**
   * The provider's payment a line comes from when it names no order itself (a Stripe charge's
   * payment intent, or the charge): the matcher finds the order it paid through the tenant's
   * payment references (`ledger/payment-refs.ts`), at each attempt.
   */
  paymentRef: z.string().min(1).max(255).optional(),
});
export type PayoutLine = z.output<typeof PayoutLine>;

/** A payout as its event describes it. */
export const Payout = z.object({
  /** The provider's payout id: with the tenant and source it names the payout. */
  id: z.string().min(1).max(100),
  /** Who paid out (`stripe`, `vipps`, `klarna`…): shown and written on the voucher. */
  provider: z.string(),
  /** ISO 4217, upper case: the deposit's currency, and the currency of every line. */
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** The deposit, as the bank statement shows it. */
  amount: z.int(),
  /** The day the deposit reaches the bank (YYYY-MM-DD): the voucher's date. */
  arrivalDate: z.iso.date(),
  /** The source whose orders the lines name. */
  orderSource: Source,
  lines: z.array(PayoutLine),
});
export type Payout = z.output<typeof Payout>;

/**
 * What a provider that keeps its own ledger of a payout says of it (Stripe:
 * `payouts/stripe/events.ts`).
 */
export interface LedgerFacts {
  /** False: made on request, so the provider cannot say which transactions it holds. */
  automatic: boolean;
  /** `standard` or `instant` (an instant payout cannot be itemised either). */
  method: string;
  /** Whether the provider's ledger of the payout is complete (`completed`) yet. */
  reconciliation: "completed" | "in_progress" | "not_applicable";
}

/** What one verified webhook says of a payout. */
export type PayoutEvent =
  | { kind: "payout-paid"; payout: Payout }
  /**
   * A payout whose lines are in the provider's own ledger, to be read from it (Stripe's
   * `payout.paid` and `payout.reconciliation_completed`): `payout.lines` is empty until then.
   */
  | { kind: "payout-read"; payout: Payout; facts: LedgerFacts }
  /** A payout reversed after it was paid (the bank sent it back): its voucher is reversed. */
  | { kind: "payout-failed"; payoutId: string; at: string; reason: string | null };
