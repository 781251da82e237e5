/**
 * @module
 * Stripe's balance transactions of a payout as the provider-neutral payout lines (`payout.ts`), by
 * their `reporting_category`, which Stripe gives "for accounting purposes" in place of `type` (it
 * splits `type=adjustment` into disputes, dispute reversals, failed refunds and more). Pure.
 *
 * | category                          | line         | linked to its order by                    |
 * | --------------------------------- | ------------ | ----------------------------------------- |
 * | `charge`                          | `charge`     | the charge's payment intent (or charge)   |
 * | `refund`                          | `refund`     | the refund's payment intent; `re_…` names |
 * |                                   |              | the refund the order's run credited       |
 * | `fee`                             | `fee`        | none: a Stripe fee not tied to a charge   |
 * | `dispute`, `dispute_reversal`     | `dispute`    | the dispute's payment intent (shown only) |
 * | `payout` of this payout           | none         | the payout's own transaction: the deposit |
 * | anything else                     | `adjustment` | none; its category is counted and shown   |
 *
 * The order is found at each attempt, inside the tenant's object, through the payment references
 * kept when the order's `invoice.paid` arrived (`paymentRef` of a line): since API version
 * 2025-03-31 a charge no longer names its invoice, so the payment intent is the link. Amounts are
 * Stripe's integers in the currency's smallest unit, turned into minor units exactly
 * (`stripeMinor`); a line's `fee` is the transaction's `fee`, the sum of its `fee_details`
 * (Stripe's fee, application fees, tax on fees).
 */
import { stripeMinor } from "../../ledger/money";
import type { Result } from "../../kernel/result";
import { idOf, type BalanceTransaction } from "./api";
import type { PayoutLine, PayoutLineType } from "../payout";

/** What one page of transactions came to. */
export interface LinesOfPage {
  lines: PayoutLine[];
  /** Transactions by category, the payout's own included: what the step reports. */
  categories: Record<string, number>;
}

/** The line type of each category ledgergate knows; any other is an adjustment. */
const LINE_OF: Record<string, PayoutLineType> = {
  charge: "charge",
  refund: "refund",
  fee: "fee",
  dispute: "dispute",
  dispute_reversal: "dispute",
};

/**
 * The lines of `transactions`, which Stripe listed for payout `payoutId` in `currency` (ISO, upper
 * case); an error naming a transaction in another currency (a payout is in one currency).
 */
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
    // A charge's own id is its reference when it has no payment intent (a charge made directly).
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
