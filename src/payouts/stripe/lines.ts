/**
 * @module
 * Stripe's balance transactions of a payout as payout lines, by `reporting_category` (finer than
 * `type`); the table is in docs/payouts.md. A line's order is found later through its payment
 * (`paymentRef`): a charge no longer names its invoice. Pure.
 */
import { stripeMinor } from "../../ledger/money";
import type { Result } from "../../kernel/result";
import { idOf, type BalanceTransaction } from "./api";
import type { PayoutLine, PayoutLineType } from "../payout";

export interface LinesOfPage {
  lines: PayoutLine[];
  /** Transactions by category, the payout's own included. */
  categories: Record<string, number>;
}

/** The line type of each category known; any other is an adjustment. */
const LINE_OF: Record<string, PayoutLineType> = {
  charge: "charge",
  refund: "refund",
  fee: "fee",
  dispute: "dispute",
  dispute_reversal: "dispute",
};

/** The lines of `transactions`; an error for one in another currency than the payout's. */
export function stripeLines(
  payoutId: string,
  currency: string,
  transactions: BalanceTransaction[],
): Result<LinesOfPage, string> {
  const lines: PayoutLine[] = [];
  const categories: Record<string, number> = {};
  for (const t of transactions) {
    if (t.currency.toUpperCase() !== currency)
      return {
        ok: false,
        error: `balance transaction ${t.id} is in ${t.currency.toUpperCase()}, payout ${payoutId} in ${currency}`,
      };
    const category = t.reporting_category;
    categories[category] = (categories[category] ?? 0) + 1;
    const source = typeof t.source === "object" && t.source !== null ? t.source : null;
    const sourceId = source?.id ?? (typeof t.source === "string" ? t.source : null);
    if (category === "payout" && sourceId === payoutId) continue;
    const type = LINE_OF[category] ?? "adjustment";
    // A charge made without a payment intent is its own reference.
    const paymentRef =
      idOf(source?.payment_intent) ??
      (source?.object === "charge" ? source.id : idOf(source?.charge)) ??
      undefined;
    lines.push({
      type,
      orderId: null,
      refundId: type === "refund" ? sourceId : null,
      amount: stripeMinor(t.amount, currency),
      fee: stripeMinor(t.fee, currency),
      ...(paymentRef && type !== "fee" && type !== "adjustment" ? { paymentRef } : {}),
    });
  }
  return { ok: true, value: { lines, categories } };
}
