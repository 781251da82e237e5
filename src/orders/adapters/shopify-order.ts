/**
 * @module
 * Shopify's REST order and its mapping to the normalized `Order`. Only the fields the invoice needs
 * are read; the rest is ignored, not refused, as Shopify adds fields with every API version.
 */
import { z } from "zod";
import type { Result } from "../../kernel/result";
import type { Buyer, Order, OrderLine, UnusableOrder, VatClass } from "../order";
import { isOrgNumberField, normalizeOrgNumber } from "../orgnr";
import { badBody, Id, IsoDateTime, Money, Text, unusable, vatOfBasisPoints } from "./payload";
import type { Refusal } from "./source";

/** A tax line: `rate` is a fraction (0.25) as a JSON number; `price` is the tax after discounts. */
export const ShopifyTaxLine = z.object({
  rate: z.union([z.number(), z.string()]).nullish(),
  price: Money.nullish(),
});

const Allocation = z.object({ amount: Money });

const LineItem = z.object({
  id: Id,
  sku: Text,
  name: Text,
  title: Text,
  quantity: z.int().nonnegative(),
  price: Money,
  /** False for a product Shopify charges no tax on. */
  taxable: z.boolean().nullish(),
  /** Absent (not empty) means the payload says nothing of the line's tax. */
  tax_lines: z.array(ShopifyTaxLine).nullish(),
  discount_allocations: z.array(Allocation).default([]),
});

const ShippingLine = z.object({
  id: Id.nullish(),
  title: Text,
  price: Money,
  discounted_price: Money.nullish(),
  tax_lines: z.array(ShopifyTaxLine).nullish(),
  discount_allocations: z.array(Allocation).default([]),
});

const Address = z.object({
  first_name: Text,
  last_name: Text,
  company: Text,
  address1: Text,
  address2: Text,
  zip: Text,
  city: Text,
  country_code: Text,
  phone: Text,
});

const Customer = z.object({ id: Id, email: Text, first_name: Text, last_name: Text, phone: Text });

export const ShopifyOrder = z.object({
  id: Id,
  name: z.string().min(1),
  test: z.boolean().nullish(),
  financial_status: Text,
  created_at: IsoDateTime,
  processed_at: IsoDateTime.nullish(),
  updated_at: IsoDateTime.nullish(),
  cancelled_at: IsoDateTime.nullish(),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "expected an ISO 4217 code"),
  taxes_included: z.boolean(),
  total_price: Money,
  email: Text,
  contact_email: Text,
  phone: Text,
  customer: Customer.nullish(),
  billing_address: Address.nullish(),
  /** Every gateway that took part of the payment, in order (Shopify's `gift_card` among them). */
  payment_gateway_names: z.array(z.string()).nullish(),
  /** Deprecated by Shopify, kept by older payloads: the first gateway. */
  gateway: Text,
  note_attributes: z.array(z.object({ name: z.string(), value: z.unknown() })).nullish(),
  line_items: z.array(LineItem).min(1),
  shipping_lines: z.array(ShippingLine).default([]),
});
export type ShopifyOrder = z.output<typeof ShopifyOrder>;

/**
 * The VAT class of Shopify tax lines (rates add up; none, or 0, is zero-rated), or null for a rate
 * that is not Norwegian. Rates are fractions, not money: rounding to basis points is exact enough.
 */
export function shopifyVat(taxLines: z.output<typeof ShopifyTaxLine>[]): VatClass | null {
  let bp = 0;
  for (const t of taxLines) {
    const rate = t.rate == null ? 0 : Number(t.rate);
    if (!Number.isFinite(rate)) return null;
    bp += Math.round(rate * 10_000);
  }
  return vatOfBasisPoints(bp);
}

function buyerOf(o: ShopifyOrder): Buyer {
  const b = o.billing_address ?? null;
  const c = o.customer ?? null;
  let organizationNumber: string | null = null;
  for (const a of o.note_attributes ?? []) {
    if (!isOrgNumberField(a.name) || (typeof a.value !== "string" && typeof a.value !== "number"))
      continue;
    organizationNumber = normalizeOrgNumber(String(a.value));
    if (organizationNumber) break;
  }
  return {
    externalId: c?.id ?? null,
    email: o.email ?? o.contact_email ?? c?.email ?? null,
    firstName: b?.first_name ?? c?.first_name ?? null,
    lastName: b?.last_name ?? c?.last_name ?? null,
    company: b?.company ?? null,
    organizationNumber,
    phone: b?.phone ?? o.phone ?? c?.phone ?? null,
    address: b
      ? {
          line1: b.address1,
          line2: b.address2,
          zip: b.zip,
          city: b.city,
          countryCode: b.country_code?.toUpperCase() ?? null,
        }
      : null,
  };
}

const sum = (xs: { amount: number }[]): number => xs.reduce((s, x) => s + x.amount, 0);

/**
 * The normalized order of a Shopify order: lines less their allocated discounts (order-level ones
 * included), in the shop's own terms. `paidAt` is `updated_at`: an `orders/paid` payload is built
 * when the payment lands. VAT is never guessed: a charged, taxable line without a tax line is
 * unusable; only `taxable: false` or a 0 % tax line is zero-rated.
 */
export function toOrder(o: ShopifyOrder): Result<Order | UnusableOrder, Refusal> {
  const lines: OrderLine[] = [];
  const bad = (where: string, why: string) => unusable(o.id, o.name, `${where}: ${why}`);
  for (const [i, l] of o.line_items.entries()) {
    if (l.quantity === 0) continue; // removed by an order edit: nothing was charged for it
    const discount = sum(l.discount_allocations);
    const amount = l.price * l.quantity - discount;
    if (amount < 0) return badBody(`line_items.${i}: discounts exceed the line's price`);
    if (l.tax_lines == null || (l.tax_lines.length === 0 && l.taxable !== false && amount > 0))
      return bad(
        `line_items.${i}`,
        "the line is charged and taxable, but Shopify states no tax for it, so its VAT cannot be determined",
      );
    const vat = shopifyVat(l.tax_lines);
    if (vat === null)
      return bad(`line_items.${i}`, "the tax rate is not a Norwegian VAT rate (25, 15, 12 or 0 %)");
    lines.push({
      ref: l.id,
      kind: "item",
      sku: l.sku,
      name: l.name ?? l.title ?? `Item ${l.id}`,
      quantity: l.quantity,
      amount,
      discount,
      vat,
    });
  }
  for (const [i, s] of o.shipping_lines.entries()) {
    if (s.tax_lines == null)
      return bad(
        `shipping_lines.${i}`,
        "Shopify states nothing of the shipping's tax, so its VAT cannot be determined",
      );
    const vat = shopifyVat(s.tax_lines);
    if (vat === null)
      return bad(
        `shipping_lines.${i}`,
        "the tax rate is not a Norwegian VAT rate (25, 15, 12 or 0 %)",
      );
    // discounted_price already has the allocations taken off; older payloads only carry them.
    const amount = s.discounted_price ?? s.price - sum(s.discount_allocations);
    if (amount < 0) return badBody(`shipping_lines.${i}: discounts exceed the shipping price`);
    if (s.price === 0 && amount === 0) continue; // free shipping: no line on the invoice
    lines.push({
      ref: s.id ?? `shipping-${i}`,
      kind: "shipping",
      sku: null,
      name: s.title ?? "Shipping",
      quantity: 1,
      amount,
      discount: s.price - amount,
      vat,
    });
  }
  return {
    ok: true,
    value: {
      source: "shopify",
      id: o.id,
      number: o.name,
      placedAt: o.processed_at ?? o.created_at,
      paidAt: o.updated_at ?? o.processed_at ?? o.created_at,
      currency: o.currency.toUpperCase(),
      taxIncluded: o.taxes_included,
      buyer: buyerOf(o),
      lines,
      total: o.total_price,
      paymentMethod: gatewayOf(o),
      paymentTitle: null,
    },
  };
}

/**
 * The gateway that took the order's money: the first named that is not a gift card (the shop's
 * own liability, no provider's payout); with gift cards alone, the gift card.
 */
function gatewayOf(o: ShopifyOrder): string | null {
  const names = (o.payment_gateway_names ?? []).map((n) => n.trim()).filter((n) => n !== "");
  const paid = names.find((n) => n.toLowerCase() !== "gift_card") ?? names[0] ?? o.gateway;
  return paid ? paid.slice(0, 100) : null;
}
