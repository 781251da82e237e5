/**
 * @module
 * Shopify's `refunds/create` body and its mapping to a normalized `Refund`. The body does not say
 * whether `subtotal` includes VAT; the two readings predict different taxes (25 % of the net is
 * 20 % of the gross), so the one under which the lines' taxes best fit a Norwegian rate wins, a tie
 * reading as tax-inclusive, the Norwegian default. Shipping adjustments are read alike.
 */
import { z } from "zod";
import type { Result } from "../../kernel/result";
import type { OrderEvent, RefundLine, VatClass } from "../order";
import { badBody, Id, IsoDateTime, Money, Text, vatOfTax } from "./payload";
import { shopifyVat, ShopifyTaxLine } from "./shopify-order";
import type { Refusal } from "./source";

const RefundLineItem = z.object({
  line_item_id: Id,
  quantity: z.int().nonnegative(),
  subtotal: Money,
  total_tax: Money.nullish(),
  line_item: z
    .object({ name: Text, title: Text, tax_lines: z.array(ShopifyTaxLine).default([]) })
    .nullish(),
});

export const ShopifyRefund = z.object({
  id: Id,
  order_id: Id,
  created_at: IsoDateTime,
  processed_at: IsoDateTime.nullish(),
  refund_line_items: z.array(RefundLineItem).default([]),
  transactions: z
    .array(z.object({ amount: Money, kind: z.string(), status: z.string() }))
    .default([]),
  order_adjustments: z
    .array(z.object({ amount: Money, tax_amount: Money.nullish(), kind: z.string(), reason: Text }))
    .default([]),
});
export type ShopifyRefund = z.output<typeof ShopifyRefund>;

/** Hundredths of a minor unit by which `tax` misses the nearest Norwegian rate (or `rate`). */
function misfit(tax: number, net: number, rate: VatClass | null): number {
  const rates = rate && rate !== "zero" && rate !== "exempt" ? [Number(rate)] : [25, 15, 12];
  return Math.min(...rates.map((r) => Math.abs(tax * 100 - net * r)));
}

/** Whether gross readings (subtotal includes tax) fit the taxes at least as well as net ones. */
function readsInclusive(items: { gross: number; tax: number; rate: VatClass | null }[]): boolean {
  let incl = 0;
  let excl = 0;
  for (const { gross, tax, rate } of items) {
    if (tax === 0) continue;
    incl += misfit(tax, gross - tax, rate);
    excl += misfit(tax, gross, rate);
  }
  return incl <= excl;
}

/** Amounts are read unsigned: Shopify writes shipping refunds negative, refund lines positive. */
const abs = Math.abs;

/** The events of a `refunds/create` body: one `refunded`, or `ignored` when no money moved. */
export function toRefundEvents(r: ShopifyRefund): Result<OrderEvent[], Refusal> {
  const items = r.refund_line_items.map((l) => ({
    l,
    gross: abs(l.subtotal),
    tax: abs(l.total_tax ?? 0),
    rate: l.line_item ? shopifyVat(l.line_item.tax_lines) : null,
  }));
  const inclusive = readsInclusive(items);
  const lines: RefundLine[] = [];
  for (const [i, { l, gross, tax, rate }] of items.entries()) {
    if (l.line_item && rate === null)
      return badBody(
        `refund_line_items.${i}: the tax rate is not a Norwegian VAT rate (25, 15, 12 or 0 %)`,
      );
    const amount = inclusive ? gross : gross + tax;
    const vat = rate ?? vatOfTax(tax, inclusive ? gross - tax : gross, l.quantity);
    if (vat === null)
      return badBody(`refund_line_items.${i}: the tax is not at a Norwegian VAT rate`);
    if (l.quantity === 0 || amount === 0) continue;
    const name = l.line_item?.name ?? l.line_item?.title ?? `Item ${l.line_item_id}`;
    lines.push({ ref: l.line_item_id, name, quantity: l.quantity, amount, vat });
  }
  for (const [i, a] of r.order_adjustments.entries()) {
    if (a.kind !== "shipping_refund") continue; // refund_discrepancy is settled by the transactions' total
    const gross = abs(a.amount);
    const tax = abs(a.tax_amount ?? 0);
    const incl = readsInclusive([{ gross, tax, rate: null }]);
    const vat = vatOfTax(tax, incl ? gross - tax : gross, 1);
    if (vat === null)
      return badBody(`order_adjustments.${i}: the tax is not at a Norwegian VAT rate`);
    const amount = incl ? gross : gross + tax;
    if (amount > 0)
      lines.push({ ref: null, name: a.reason ?? "Shipping refund", quantity: 1, amount, vat });
  }
  const paid = r.transactions
    .filter((t) => t.kind === "refund" && t.status === "success")
    .reduce((s, t) => s + abs(t.amount), 0);
  const total = paid > 0 ? paid : lines.reduce((s, l) => s + l.amount, 0);
  if (total <= 0)
    return {
      ok: true,
      value: [{ kind: "ignored", orderId: r.order_id, reason: "refund without money back" }],
    };
  return {
    ok: true,
    value: [
      {
        kind: "refunded",
        orderId: r.order_id,
        refund: { id: r.id, at: r.processed_at ?? r.created_at, lines, total },
      },
    ],
  };
}
