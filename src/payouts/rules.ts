/**
 * @module
 * What a payout must be before it may reach the bank, by where it came from. Pure: the matcher
 * (`match.ts`) asks `payoutRules` of every payout, and the Standard payout's schema
 * (`orders/adapters/standard-schema.ts`) asks `senderSignError` of every line a sender writes.
 *
 * The rules are keyed by the payout's verified source (the webhook route it came on), never by its
 * `provider`, which the sender writes and could set to whatever is most lenient. Only the operator
 * can waive one, and only `needs-orders`, for one payout's lines as they stand (`confirmable`): a
 * gateway key's holder cannot, being whoever could have sent such a payout in the first place.
 */
import type { Source } from "../orders/order";
import type { Payout, PayoutLine } from "./payout";
import type { PayoutIssue, PayoutRecord } from "./records";

/** What a payout of one source must be. */
export interface PayoutRules {
  /** The sources whose orders its lines may name (`Payout.orderSource`). */
  orderSources: readonly Source[];
  /**
   * Whether it must pay out at least one of the tenant's orders: a charge or refund line that
   * matches. Adjustments, fee and dispute lines move money with no buyer and no order behind it;
   * a payout of only those is held `unmatched` rather than booked to the bank on its sender's
   * word. A provider whose payouts may be a reserve released or a balance repaid alone gets false.
   */
  requiresOrders: boolean;
}

/**
 * By source. A Standard payout is how the providers ledgergate does not read itself (Vipps
 * MobilePay, Klarna, Shopify Payments) pay out standard, Shopify and WooCommerce orders. Stripe's
 * orders are paid out by Stripe's own payouts, read from Stripe (docs/payouts.md), so a Standard
 * sender cannot claim them ahead of Stripe. Shopify and WooCommerce send no payouts.
 */
const RULES: Record<Source, PayoutRules> = {
  standard: { orderSources: ["standard", "shopify", "woocommerce"], requiresOrders: true },
  stripe: { orderSources: ["stripe"], requiresOrders: true },
  shopify: { orderSources: [], requiresOrders: true },
  woocommerce: { orderSources: [], requiresOrders: true },
};

/** The rules a payout that came from `source` is held to. */
export function payoutRules(source: Source): PayoutRules {
  return RULES[source];
}

/** Whether a line is a sale's: a charge or refund, the lines that name the tenant's orders. */
export const isSale = (l: Pick<PayoutLine, "type">) => l.type === "charge" || l.type === "refund";

/**
 * The payout's own issue when its rules forbid it whatever its lines say (null: none): it names
 * orders of a source its sender may not claim, or, needing orders, has no charge or refund line
 * and the operator has not confirmed it (`ordersWaived`).
 */
export function rulesIssue(
  source: Source,
  payout: Payout,
  ordersWaived = false,
): PayoutIssue | null {
  const rules = payoutRules(source);
  const own = { line: null, orderId: null, refundId: null };
  if (!rules.orderSources.includes(payout.orderSource))
    return {
      ...own,
      reason: "other-source",
      detail: `a ${source} payout may name ${rules.orderSources.join(", ") || "no"} orders, not ${payout.orderSource} orders${payout.orderSource === "stripe" ? ", which Stripe's own payouts pay out" : ""}`,
    };
  if (rules.requiresOrders && !ordersWaived && !payout.lines.some(isSale))
    return {
      ...own,
      reason: "needs-orders",
      detail: `no line is a charge or refund of a ${payout.orderSource} order of this tenant: a payout of adjustments, fees or disputes alone is not booked; send it again with the orders it pays out, or the operator confirms it (the console's Confirm and book)`,
    };
  return null;
}

/**
 * Whether the operator may confirm the payout: it is held for `needs-orders` and nothing else (the
 * rule's issue is the only one the matcher then gives), and the provider has not said it failed.
 */
export const confirmable = (r: Pick<PayoutRecord, "state" | "failed" | "issues">) =>
  r.state === "unmatched" && !r.failed && r.issues.some((i) => i.reason === "needs-orders");

/**
 * Why a line a sender wrote is signed as no provider's ledger signs it (null: it is not): a
 * negative fee (a fee given back is an `adjustment`), a negative charge, a positive refund, or a
 * positive fee line. Each would move money into the bank with no sale behind it. Only for lines a
 * sender writes: a ledger read from the provider (Stripe's) books its fee refunds as it states
 * them.
 */
export function senderSignError(
  l: Pick<PayoutLine, "type" | "amount" | "fee">,
): { field: "amount" | "fee"; message: string } | null {
  if (l.fee < 0)
    return {
      field: "fee",
      message: "a line's fee is a cost, 0 or more; send a fee given back as an adjustment line",
    };
  if (l.type === "charge" && l.amount < 0)
    return { field: "amount", message: "a charge is money in, 0 or more" };
  if (l.type === "refund" && l.amount > 0)
    return { field: "amount", message: "a refund is money out, 0 or less" };
  if (l.type === "fee" && l.amount > 0)
    return {
      field: "amount",
      message: "a fee line is a cost, 0 or less; send a fee given back as an adjustment line",
    };
  return null;
}
