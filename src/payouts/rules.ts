/**
 * @module
 * What a payout must be before it may reach the bank, keyed by its verified source, never by the
 * `provider` its sender writes. Only the operator can waive a rule, and only `needs-orders`: a
 * gateway key's holder may be who sent the payout. Pure. See docs/payouts.md.
 */
import type { Source } from "../orders/order";
import type { Payout, PayoutLine, PayoutSource } from "./payout";
import type { PayoutIssue, PayoutRecord } from "./records";

export interface PayoutRules {
  /** The sources whose orders its lines may name. */
  orderSources: readonly Source[];
  /** Whether a charge or refund line must match: other lines have no order behind them. */
  requiresOrders: boolean;
}

/**
 * Stripe's orders are paid out by Stripe's own payouts, so no Standard sender may claim them. A
 * Vipps payout is read from Vipps's own ledger with the merchant's keys, not sent: one that only
 * repays a balance carried from an earlier date, with no sale of its own, is a real deposit.
 */
const RULES: Record<PayoutSource, PayoutRules> = {
  vipps: { orderSources: ["standard", "shopify", "woocommerce"], requiresOrders: false },
  standard: { orderSources: ["standard", "shopify", "woocommerce"], requiresOrders: true },
  stripe: { orderSources: ["stripe"], requiresOrders: true },
  shopify: { orderSources: [], requiresOrders: true },
  woocommerce: { orderSources: [], requiresOrders: true },
};

export function payoutRules(source: PayoutSource): PayoutRules {
  return RULES[source];
}

/** Whether a line is a charge or refund, the lines that name the tenant's orders. */
export const isSale = (l: Pick<PayoutLine, "type">) => l.type === "charge" || l.type === "refund";

/** The payout's own issue when its rules forbid it whatever its lines say, or null. */
export function rulesIssue(
  source: PayoutSource,
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

/** Whether the operator may confirm the payout: held for `needs-orders`, and not failed. */
export const confirmable = (r: Pick<PayoutRecord, "state" | "failed" | "issues">) =>
  r.state === "unmatched" && !r.failed && r.issues.some((i) => i.reason === "needs-orders");

/**
 * Why a line a sender wrote is signed as no provider's ledger signs it, or null: each such line
 * would move money into the bank with no sale behind it. Not for lines read from Stripe.
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
