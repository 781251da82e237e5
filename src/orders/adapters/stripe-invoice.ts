/**
 * @module
 * Stripe's Invoice (the body of `invoice.paid`) and its mapping to the normalized `Order`; amounts
 * go through `stripeMinor` (zero-decimal currencies differ). A line's tax is read in both shapes,
 * `tax_amounts[]` (before API version 2025-03-31) and `taxes[]` (since), the rate from the expanded
 * rate or tax ÷ taxable amount. A line with neither makes the order unusable, never 0 %.
 */
import { z } from "zod";
import type { Result } from "../../kernel/result";
import { stripeMinor } from "../../ledger/money";
import type { Buyer, Order, OrderLine, UnusableOrder, VatClass } from "../order";
import { normalizeOrgNumber } from "../orgnr";
import { badBody, Text, unixToIso, unusable, vatOfBasisPoints, vatOfTax } from "./payload";
import type { Refusal } from "./source";

const Rate = z.object({ percentage: z.number(), inclusive: z.boolean().nullish() });
const TaxAmount = z.object({
  amount: z.int(),
  inclusive: z.boolean(),
  tax_rate: z.union([z.string(), Rate]).nullish(),
  taxable_amount: z.int().nullish(),
});
/** A line's tax since 2025-03-31; the rate is an id unless expanded. */
const LineTax = z.object({
  amount: z.int(),
  tax_behavior: z.enum(["inclusive", "exclusive"]),
  taxable_amount: z.int().nullish(),
  tax_rate_details: z.object({ tax_rate: z.union([z.string(), Rate]).nullish() }).nullish(),
});
interface Tax {
  amount: number;
  inclusive: boolean;
  rate: z.output<typeof Rate> | null;
  taxable_amount: number | null;
}

const Line = z.object({
  id: z.string().min(1),
  amount: z.int(),
  quantity: z.int().positive().nullish(),
  description: Text,
  discount_amounts: z.array(z.object({ amount: z.int().nonnegative() })).nullish(),
  tax_amounts: z.array(TaxAmount).nullish(),
  taxes: z.array(LineTax).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  price: z.object({ lookup_key: Text }).nullish(),
});

const Shipping = z.object({
  amount_subtotal: z.int().nonnegative(),
  amount_tax: z.int().nonnegative().nullish(),
  amount_total: z.int().nonnegative(),
  shipping_rate: z.union([z.string(), z.object({ display_name: Text })]).nullish(),
  taxes: z
    .array(z.object({ amount: z.int(), rate: Rate.nullish(), taxable_amount: z.int().nullish() }))
    .nullish(),
});

const Address = z.object({
  line1: Text,
  line2: Text,
  postal_code: Text,
  city: Text,
  country: Text,
});

/** An id, or the object it names when expanded. */
const Ref = z.union([z.string().min(1).max(255), z.object({ id: z.string().min(1).max(255) })]);

/** The invoice fields ledgergate reads. */
export const StripeInvoice = z.object({
  id: z.string().min(1).max(100),
  number: Text,
  created: z.int(),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "expected an ISO 4217 code"),
  customer: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  customer_email: Text,
  customer_name: Text,
  customer_phone: Text,
  customer_address: Address.nullish(),
  customer_tax_ids: z.array(z.object({ type: z.string(), value: z.string() })).nullish(),
  lines: z.object({ data: z.array(Line).min(1), has_more: z.boolean().nullish() }),
  shipping_cost: Shipping.nullish(),
  amount_paid: z.int().nonnegative(),
  status_transitions: z
    .object({ paid_at: z.int().nullish(), voided_at: z.int().nullish() })
    .nullish(),
  /** The payment before API version 2025-03-31; `payments` since. */
  payment_intent: Ref.nullish(),
  charge: Ref.nullish(),
  payments: z
    .object({
      data: z.array(
        z.object({
          payment: z.object({ payment_intent: Ref.nullish(), charge: Ref.nullish() }).nullish(),
        }),
      ),
    })
    .nullish(),
});
export type StripeInvoice = z.output<typeof StripeInvoice>;

/**
 * The references of the invoice's payment, which a payout's lines name instead of the invoice
 * (`payouts/stripe/lines.ts`); at most 20, as an invoice is paid in one or a few attempts.
 */
export function paymentRefsOf(inv: StripeInvoice): string[] {
  const id = (r: z.output<typeof Ref> | null | undefined) =>
    r == null ? [] : [typeof r === "string" ? r : r.id];
  const refs = [
    ...id(inv.payment_intent),
    ...id(inv.charge),
    ...(inv.payments?.data ?? []).flatMap((p) => [
      ...id(p.payment?.payment_intent),
      ...id(p.payment?.charge),
    ]),
  ];
  return [...new Set(refs)].slice(0, 20);
}

/**
 * The VAT class of one charge: no tax at all is zero-rated; expanded rates add up; else tax over
 * taxable amount, to one unit of rounding. Null: no Norwegian rate fits.
 */
function vatOf(
  rates: (z.output<typeof Rate> | null)[],
  tax: number,
  taxable: number,
): VatClass | null {
  if (rates.length === 0 && tax === 0) return "zero";
  const known = rates.filter((r): r is z.output<typeof Rate> => r !== null);
  if (known.length > 0 && known.length === rates.length)
    return vatOfBasisPoints(Math.round(known.reduce((s, r) => s + r.percentage, 0) * 100));
  return vatOfTax(tax, taxable, 1);
}

/** The amount Stripe says it taxed, when every tax entry says it; null otherwise. */
function taxableOf(taxes: { taxable_amount?: number | null }[]): number | null {
  if (taxes.length === 0 || taxes.some((t) => t.taxable_amount == null)) return null;
  return taxes.reduce((n, t) => n + (t.taxable_amount ?? 0), 0);
}

/** A line's taxes in either shape; null when the line carries neither list. */
function lineTaxes(l: z.output<typeof Line>): Tax[] | null {
  const rateOf = (r: string | z.output<typeof Rate> | null | undefined) =>
    typeof r === "object" ? (r ?? null) : null;
  if (l.taxes != null)
    return l.taxes.map((t) => ({
      amount: t.amount,
      inclusive: t.tax_behavior === "inclusive",
      rate: rateOf(t.tax_rate_details?.tax_rate),
      taxable_amount: t.taxable_amount ?? null,
    }));
  if (l.tax_amounts != null)
    return l.tax_amounts.map((t) => ({
      amount: t.amount,
      inclusive: t.inclusive,
      rate: rateOf(t.tax_rate),
      taxable_amount: t.taxable_amount ?? null,
    }));
  return null;
}

function buyerOf(inv: StripeInvoice): Buyer {
  const ids = inv.customer_tax_ids ?? [];
  const noVat = ids.find((t) => t.type === "no_vat");
  // A tax id means a business: Stripe's customer name is then the company's name.
  const company = ids.length > 0 ? inv.customer_name : null;
  const words = company === null && inv.customer_name ? inv.customer_name.split(/\s+/) : [];
  const a = inv.customer_address ?? null;
  return {
    externalId: typeof inv.customer === "string" ? inv.customer : (inv.customer?.id ?? null),
    email: inv.customer_email,
    firstName: words.length > 1 ? words.slice(0, -1).join(" ") : (words[0] ?? null),
    lastName: words.length > 1 ? (words.at(-1) ?? null) : null,
    company,
    organizationNumber: noVat ? normalizeOrgNumber(noVat.value) : null,
    phone: inv.customer_phone,
    address: a
      ? {
          line1: a.line1,
          line2: a.line2,
          zip: a.postal_code,
          city: a.city,
          countryCode: a.country?.toUpperCase() ?? null,
        }
      : null,
  };
}

/**
 * The normalized order of a paid invoice. One mixing inclusive and exclusive tax is refused, not
 * guessed; one without tax reads as inclusive. A line's VAT untold or not Norwegian: unusable.
 */
export function toOrder(inv: StripeInvoice): Result<Order | UnusableOrder, Refusal> {
  if (inv.lines.has_more)
    return badBody("invoice lists more lines than the event carries (lines.has_more)");
  const currency = inv.currency.toUpperCase();
  const number = inv.number ?? inv.id;
  const m = (n: number): number => stripeMinor(n, currency);
  const notNorwegian = (where: string) =>
    unusable(
      inv.id,
      number,
      `${where}: the tax is not at a Norwegian VAT rate (25, 15, 12 or 0 %)`,
    );
  const taxesOf = inv.lines.data.map(lineTaxes);
  const untold = taxesOf.findIndex((t) => t === null);
  if (untold >= 0)
    return unusable(
      inv.id,
      number,
      `lines.data.${untold}: the line carries neither taxes nor tax_amounts, so its VAT cannot be determined`,
    );
  const flags = new Set<boolean>();
  for (const taxes of taxesOf) for (const t of taxes ?? []) flags.add(t.inclusive);
  for (const t of inv.shipping_cost?.taxes ?? [])
    if (t.rate?.inclusive != null) flags.add(t.rate.inclusive);
  if (flags.size > 1) return badBody("invoice mixes tax-inclusive and tax-exclusive lines");
  const taxIncluded = !flags.has(false);
  const lines: OrderLine[] = [];
  for (const [i, l] of inv.lines.data.entries()) {
    const discount = (l.discount_amounts ?? []).reduce((s, d) => s + d.amount, 0);
    const amount = l.amount - discount;
    const taxes = taxesOf[i] ?? [];
    const tax = taxes.reduce((s, t) => s + t.amount, 0);
    const taxable = taxableOf(taxes) ?? (taxIncluded ? amount - tax : amount);
    const vat = vatOf(
      taxes.map((t) => t.rate),
      tax,
      taxable,
    );
    if (vat === null) return notNorwegian(`lines.data.${i}`);
    if (amount < 0) return badBody(`lines.data.${i}: discounts exceed the line's amount`);
    const sku = l.metadata?.["sku"] || l.price?.lookup_key || null;
    lines.push({
      ref: l.id,
      kind: "item",
      sku,
      name: l.description ?? "Item",
      quantity: l.quantity ?? 1,
      amount: m(amount),
      discount: m(discount),
      vat,
    });
  }
  const s = inv.shipping_cost;
  if (s && s.amount_subtotal > 0) {
    if (s.taxes == null && s.amount_tax == null)
      return unusable(
        inv.id,
        number,
        "shipping_cost: carries neither taxes nor amount_tax, so its VAT cannot be determined",
      );
    const tax = s.amount_tax ?? 0;
    const taxes = s.taxes ?? [];
    const taxable = taxableOf(taxes) ?? (taxIncluded ? s.amount_total - tax : s.amount_subtotal);
    const vat = vatOf(
      taxes.map((t) => t.rate ?? null),
      tax,
      taxable,
    );
    if (vat === null) return notNorwegian("shipping_cost");
    const name =
      typeof s.shipping_rate === "object"
        ? (s.shipping_rate?.display_name ?? "Shipping")
        : "Shipping";
    // Inclusive: the total is the gross price. Exclusive: the subtotal is the net one.
    lines.push({
      ref: "shipping",
      kind: "shipping",
      sku: null,
      name,
      quantity: 1,
      amount: m(taxIncluded ? s.amount_total : s.amount_subtotal),
      discount: 0,
      vat,
    });
  }
  const paidAt = inv.status_transitions?.paid_at;
  return {
    ok: true,
    value: {
      source: "stripe",
      id: inv.id,
      number,
      placedAt: unixToIso(inv.created),
      paidAt: paidAt == null ? null : unixToIso(paidAt),
      currency,
      taxIncluded,
      buyer: buyerOf(inv),
      lines,
      total: m(inv.amount_paid),
      // Stripe pays the order out whatever the buyer's method; its brand would cost a read.
      paymentMethod: "stripe",
      paymentTitle: null,
    },
  };
}
