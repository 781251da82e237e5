/**
 * @module
 * WooCommerce's REST v3 order and its mapping to the normalized `Order`. A line's `total` is always
 * VAT excluded, after discounts, so the order maps as tax-exclusive; its `total` stays as Woo sent.
 */
import { z } from "zod";
import type { Result } from "../../kernel/result";
import type { Buyer, Order, OrderLine, UnusableOrder, VatClass } from "../order";
import { isOrgNumberField, normalizeOrgNumber } from "../orgnr";
import { badBody, Id, Money, Text, unusable, vatOfBasisPoints, vatOfTax } from "./payload";
import type { Refusal } from "./source";

/** Woo's GMT date-times have no offset ("2026-03-01T10:00:00"); they are UTC, so `Z` is added. */
const GmtDate = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/,
    "expected a GMT date-time like 2026-03-01T10:00:00",
  )
  .transform((s) => `${s}Z`);

const Taxes = z
  .array(z.object({ id: Id, total: z.union([z.string(), z.number()]).nullish() }))
  .default([]);

const Line = z.object({
  id: Id,
  name: Text,
  sku: Text,
  quantity: z.int(),
  subtotal: Money,
  total: Money,
  total_tax: Money,
  taxes: Taxes,
});
const Shipping = z.object({
  id: Id,
  method_title: Text,
  total: Money,
  total_tax: Money,
  taxes: Taxes,
});
const Fee = z.object({ id: Id, name: Text, total: Money, total_tax: Money, taxes: Taxes });

export const WooOrder = z.object({
  id: Id,
  number: z.union([z.string().min(1), z.int()]).transform(String),
  status: z.string(),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "expected an ISO 4217 code"),
  date_created_gmt: GmtDate,
  date_modified_gmt: GmtDate.nullish(),
  date_paid: z.string().nullish(),
  date_paid_gmt: GmtDate.nullish(),
  /** 0 for a guest. */
  customer_id: Id.default("0"),
  billing: z
    .object({
      first_name: Text,
      last_name: Text,
      company: Text,
      address_1: Text,
      address_2: Text,
      city: Text,
      postcode: Text,
      country: Text,
      email: Text,
      phone: Text,
    })
    .nullish(),
  payment_method: Text,
  payment_method_title: Text,
  meta_data: z.array(z.object({ key: z.string(), value: z.unknown() })).default([]),
  line_items: z.array(Line).default([]),
  shipping_lines: z.array(Shipping).default([]),
  fee_lines: z.array(Fee).default([]),
  tax_lines: z.array(z.object({ rate_id: Id, rate_percent: z.number().nullish() })).default([]),
  refunds: z.array(z.object({ id: Id, reason: Text, total: Money })).default([]),
  total: Money,
});
export type WooOrder = z.output<typeof WooOrder>;

/**
 * The VAT class of one Woo line: the rate it names, else (older Woo) `total_tax/total` with an øre
 * of rounding per unit. No tax is zero-rated.
 */
function vatOf(
  line: { total: number; total_tax: number; taxes: z.output<typeof Taxes> },
  ratePercent: Map<string, number>,
  quantity: number,
): VatClass | null {
  const named = new Set<number>();
  for (const t of line.taxes) {
    const p = ratePercent.get(t.id);
    if (p !== undefined && t.total !== null && t.total !== undefined && t.total !== "")
      named.add(Math.round(p * 100));
  }
  if (named.size === 1) return vatOfBasisPoints([...named][0] ?? -1);
  return vatOfTax(line.total_tax, line.total, Math.max(1, quantity));
}

function buyerOf(o: WooOrder): Buyer {
  const b = o.billing ?? null;
  let organizationNumber: string | null = null;
  for (const m of o.meta_data) {
    if (!isOrgNumberField(m.key) || (typeof m.value !== "string" && typeof m.value !== "number"))
      continue;
    organizationNumber = normalizeOrgNumber(String(m.value));
    if (organizationNumber) break;
  }
  return {
    externalId: /^0*$/.test(o.customer_id) ? null : o.customer_id,
    email: b?.email ?? null,
    firstName: b?.first_name ?? null,
    lastName: b?.last_name ?? null,
    company: b?.company ?? null,
    organizationNumber,
    phone: b?.phone ?? null,
    address: b
      ? {
          line1: b.address_1,
          line2: b.address_2,
          zip: b.postcode,
          city: b.city,
          countryCode: b.country?.toUpperCase() ?? null,
        }
      : null,
  };
}

/** The normalized order of a Woo order; a tax at no Norwegian rate makes it unusable, not 0 %. */
export function toOrder(o: WooOrder): Result<Order | UnusableOrder, Refusal> {
  const rates = new Map(
    o.tax_lines.filter((t) => t.rate_percent != null).map((t) => [t.rate_id, t.rate_percent ?? 0]),
  );
  const lines: OrderLine[] = [];
  const notNorwegian = (where: string) =>
    unusable(
      o.id,
      o.number,
      `${where}: the tax is not at a Norwegian VAT rate (25, 15, 12 or 0 %), so its VAT cannot be determined`,
    );
  for (const [i, l] of o.line_items.entries()) {
    if (l.quantity <= 0) continue; // Woo keeps a zero-quantity line after an edit; nothing was charged
    const vat = vatOf(l, rates, l.quantity);
    if (vat === null) return notNorwegian(`line_items.${i}`);
    const discount = l.subtotal - l.total;
    if (discount < 0 || l.total < 0)
      return badBody(`line_items.${i}: total must be between 0 and subtotal`);
    lines.push({
      ref: l.id,
      kind: "item",
      sku: l.sku,
      name: l.name ?? `Item ${l.id}`,
      quantity: l.quantity,
      amount: l.total,
      discount,
      vat,
    });
  }
  for (const [i, s] of o.shipping_lines.entries()) {
    const vat = vatOf(s, rates, 1);
    if (vat === null) return notNorwegian(`shipping_lines.${i}`);
    if (s.total === 0 && s.total_tax === 0) continue; // free shipping or pickup: no invoice line
    lines.push({
      ref: s.id,
      kind: "shipping",
      sku: null,
      name: s.method_title ?? "Shipping",
      quantity: 1,
      amount: s.total,
      discount: 0,
      vat,
    });
  }
  for (const [i, f] of o.fee_lines.entries()) {
    const vat = vatOf(f, rates, 1);
    if (vat === null) return notNorwegian(`fee_lines.${i}`);
    lines.push({
      ref: f.id,
      kind: "fee",
      sku: null,
      name: f.name ?? "Fee",
      quantity: 1,
      amount: f.total,
      discount: 0,
      vat,
    });
  }
  return {
    ok: true,
    value: {
      source: "woocommerce",
      id: o.id,
      number: o.number,
      placedAt: o.date_created_gmt,
      paidAt: o.date_paid_gmt ?? null,
      currency: o.currency.toUpperCase(),
      taxIncluded: false,
      buyer: buyerOf(o),
      lines,
      total: o.total,
      paymentMethod: o.payment_method?.slice(0, 100) || null,
      paymentTitle: o.payment_method_title?.slice(0, 200) || null,
    },
  };
}
