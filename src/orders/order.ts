/**
 * @module
 * The one normalized order every shop source maps to, and the events a webhook can carry. Amounts
 * are integers of minor units (see `money.ts`). Adapters fill it; the order run reads only this.
 */
import { z } from "zod";
import type { PayoutEvent } from "../payouts/payout";

/** The shop sources ledgergate takes webhooks from. */
export const Source = z.enum(["shopify", "woocommerce", "stripe", "standard"]);
export type Source = z.output<typeof Source>;

/**
 * How a line is taxed in Norway: the three rates, zero-rated (code 5: taxable at 0 %) and exempt
 * (code 6: outside the VAT act). A shop's plain "0 %" is `zero`.
 */
export const VatClass = z.enum(["25", "15", "12", "zero", "exempt"]);
export type VatClass = z.output<typeof VatClass>;

/** Minor units: an integer amount of øre or cents. */
const Minor = z.int();

export const Address = z.object({
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  zip: z.string().nullable(),
  city: z.string().nullable(),
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable(),
});
export type Address = z.output<typeof Address>;

/** Who bought: a person, or a company when `company` is set. */
export const Buyer = z.object({
  /** The shop's own customer id, when it has one (guests have none). */
  externalId: z.string().nullable(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
  /** As the shop gave it; checked with MOD11 before it is used. */
  organizationNumber: z.string().nullable(),
  phone: z.string().nullable(),
  address: Address.nullable(),
});
export type Buyer = z.output<typeof Buyer>;

/** One line of an order: an item, shipping, or a fee. */
export const OrderLine = z.object({
  /** The shop's line id (refunds name it). */
  ref: z.string(),
  kind: z.enum(["item", "shipping", "fee"]),
  /** Null for a line without SKU, and for shipping and fees. */
  sku: z.string().min(1).nullable(),
  name: z.string(),
  quantity: z.int().positive(),
  /** The line's amount after its discounts, tax included when the order's `taxIncluded` says so. */
  amount: Minor,
  /** The discount already taken off `amount`, in the same terms. */
  discount: Minor.nonnegative(),
  vat: VatClass,
});
export type OrderLine = z.output<typeof OrderLine>;

/** A paid order, normalized. */
export const Order = z.object({
  source: Source,
  /** The shop's order id: with the tenant and source it names the run. */
  id: z.string().min(1).max(100),
  /** The number the buyer sees (Shopify's order name); the invoice's customer reference. */
  number: z.string(),
  placedAt: z.iso.datetime({ offset: true }),
  paidAt: z.iso.datetime({ offset: true }).nullable(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** Whether line amounts include VAT. */
  taxIncluded: z.boolean(),
  buyer: Buyer,
  lines: z.array(OrderLine).min(1),
  /** What the buyer paid in all, VAT included: the invoice total must equal it to the øre. */
  total: Minor,
  /**
   * How the buyer paid, as the shop names it (WooCommerce's `payment_method`, Shopify's gateway,
   * `stripe`): it picks the clearing account. Null when the shop does not say; absent on orders
   * recorded before it was read.
   */
  paymentMethod: z.string().min(1).max(100).nullable().optional(),
  /** The shop's own words for the method (WooCommerce's title), for people. */
  paymentTitle: z.string().max(200).nullable().optional(),
});
export type Order = z.output<typeof Order>;

/** One refunded line: which order line, how many, and how much money back (VAT included). */
export const RefundLine = z.object({
  /** The order line's `ref`; null for an amount not tied to a line. */
  ref: z.string().nullable(),
  name: z.string(),
  quantity: z.int().positive(),
  amount: Minor.positive(),
  vat: VatClass,
});
export type RefundLine = z.output<typeof RefundLine>;

/** A refund of (part of) an order. */
export const Refund = z.object({
  /** The shop's refund id: names the credit note. */
  id: z.string().min(1).max(100),
  at: z.iso.datetime({ offset: true }),
  /** The refunded lines; empty when the source names none (then see `creditPlan`). */
  lines: z.array(RefundLine),
  /** Money back in all, VAT included, positive. */
  total: Minor.positive(),
});
export type Refund = z.output<typeof Refund>;

/**
 * A paid order that cannot be invoiced as sent: a line's VAT unstated, or not Norwegian. VAT is
 * never guessed: its run is recorded as failed with `problem`, and nothing is booked.
 */
export interface UnusableOrder {
  id: string;
  number: string;
  /** What a person must fix, naming the line ("line_items.2: …"). */
  problem: string;
}

/** What one verified webhook says. */
export type OrderEvent =
  /** `refs`: the payment's references (Stripe), by which a payout's lines find the order. */
  | { kind: "paid"; order: Order; refs?: string[] }
  | { kind: "unusable"; orderId: string; reason: string }
  | { kind: "cancelled"; orderId: string; at: string }
  | { kind: "refunded"; orderId: string; refund: Refund }
  /** Verified, well-formed, but nothing to do (an unpaid update, a test order, another topic). */
  | { kind: "ignored"; orderId: string | null; reason: string }
  | { kind: "payout"; event: PayoutEvent }
  /** An order's payment named apart from it (Stripe): its references only; the run is untouched. */
  | { kind: "payment"; orderId: string; refs: string[] };
