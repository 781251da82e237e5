/**
 * @module
 * One provider payout, normalized: the deposit and its lines, in minor units signed as the
 * provider's ledger signs them (`amount` gross, `fee` a cost). A whole payout's deposit is
 * Σ (amount − fee) over its lines; otherwise nothing is booked.
 */
import { z } from "zod";
import { Source } from "../orders/order";

/** `unknown`: a provider's entry type the gateway does not know; its payout is held, not guessed. */
export const PayoutLineType = z.enum([
  "charge",
  "refund",
  "fee",
  "adjustment",
  "dispute",
  "unknown",
]);
export type PayoutLineType = z.output<typeof PayoutLineType>;

export const PayoutLine = z.object({
  type: PayoutLineType,
  orderId: z.string().nullable(),
  refundId: z.string().nullable(),
  amount: z.int(),
  fee: z.int(),
  /** The provider's payment of a line that names no order (Stripe's): its order is found by it. */
  paymentRef: z.string().min(1).max(255).optional(),
  /** The provider's own name of a line read from its ledger (Vipps's `entryType`): shown. */
  entryType: z.string().max(60).optional(),
});
export type PayoutLine = z.output<typeof PayoutLine>;

/**
 * Who a payout came from: a shop source whose verified webhook brought it, or `vipps`, whose
 * settlements the gateway reads itself with the merchant's keys. With the id it names a payout.
 */
export const PayoutSource = z.enum([...Source.options, "vipps"]);
export type PayoutSource = z.output<typeof PayoutSource>;

export const Payout = z.object({
  /** The provider's payout id: with the tenant and source it names the payout. */
  id: z.string().min(1).max(100),
  /** Who paid out (`stripe`, `vipps`, `klarna`…): shown and written on the voucher. */
  provider: z.string(),
  /** ISO 4217: the deposit's currency, and every line's. */
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** The deposit, as the bank statement shows it. */
  amount: z.int(),
  /** The voucher's date. */
  arrivalDate: z.iso.date(),
  orderSource: Source,
  lines: z.array(PayoutLine),
});
export type Payout = z.output<typeof Payout>;

/** What a provider that keeps its own ledger of a payout (Stripe) says of it. */
export interface LedgerFacts {
  /** False: made on request, so the provider cannot say which transactions it holds. */
  automatic: boolean;
  /** `standard` or `instant` (an instant payout cannot be itemised either). */
  method: string;
  reconciliation: "completed" | "in_progress" | "not_applicable";
}

/** What one verified webhook says of a payout. */
export type PayoutEvent =
  | { kind: "payout-paid"; payout: Payout }
  /** Lines to be read from the provider's own ledger (Stripe): `payout.lines` is empty. */
  | { kind: "payout-read"; payout: Payout; facts: LedgerFacts }
  | { kind: "payout-failed"; payoutId: string; at: string; reason: string | null };
