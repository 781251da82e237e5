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
 * How a line is taxed in Norway: the three VAT rates, zero-rated (code 5: taxable turnover at 0 %,
 * e.g. books, exports) and exempt (code 6: outside the VAT act). A shop that only says "0 %" maps
 * to `zero` unless it says otherwise.
 */
export const VatClass = z.enum(["25", "15", "12", "zero", "exempt"]);
export type VatClass = z.output<typeof VatClass>;

/** Minor units: an integer amount of øre or cents. */
const Minor = z.int();

/** A postal address, as the shop gives it. */
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
  /** The company name for a business purchase; null for a person. */
  company: z.string().nullable(),
  /** As the shop gave it (digits only after normalizing); checked with MOD11 before it is used. */
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
  /** Whole units: shops sell whole units. */
  quantity: z.int().positive(),
  /** The line's amount after its discounts, tax included when the order's `taxIncluded` says so. */
  amount: Minor,
  /** The discount already taken off `amount`, in the same terms; shown on the invoice line. */
  discount: Minor.nonnegative(),
  vat: VatClass,
});
export type OrderLine = z.output<typeof OrderLine>;

/** A paid order, normalized. */
export const Order = z.object({
  source: Source,
  /** The shop's order id: with the tenant and source it names the run. */
  id: z.string().min(1).max(100),
  /** What the buyer sees ("#1001"); goes to the invoice as the customer's reference. */
  number: z.string(),
  placedAt: z.iso.datetime({ offset: true }),
  paidAt: z.iso.datetime({ offset: true }).nullable(),
  /** ISO 4217, upper case. */
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** Whether line amounts include VAT (Norwegian shops usually show prices with VAT). */
  taxIncluded: z.boolean(),
  buyer: Buyer,
  lines: z.array(OrderLine).min(1),
  /** What the buyer paid in all, VAT included: the invoice total must equal it to the øre. */
  total: Minor,
});
export type Order = z.output<typeof Order>;

/** One refunded line: which order line, how many, and how much money back (VAT included). */
export const RefundLine = z.object({
  /**
   * The order line's `ref`; null for an amount not tied to a line (then `vat` says how it is
   * taxed).
   */
  ref: z.string().nullable(),
  name: z.string(),
  quantity: z.int().positive(),
  /** Money back for this line, VAT included, positive. */
  amount: Minor.positive(),
  vat: VatClass,
});
export type RefundLine = z.output<typeof RefundLine>;

/** A refund of (part of) an order. */
export const Refund = z.object({
  /** The shop's refund id: names the credit note. */
  id: z.string().min(1).max(100),
  at: z.iso.datetime({ offset: true }),
  /**
   * The refunded lines. Empty when the source only says how much was refunded (Stripe): the
   * amount is then shared over the invoiced lines in proportion (see `creditPlan` in
   * `invoice-lines.ts`).
   */
  lines: z.array(RefundLine),
  /** Money back in all, VAT included, positive. */
  total: Minor.positive(),
});
export type Refund = z.output<typeof Refund>;

/**
 * A paid order that cannot be invoiced as the shop sent it: a line whose VAT the shop did not
 * state, or stated at a rate that is not Norwegian. Booking it would mean guessing the VAT (0 % was
 * the old guess), so its run is recorded as failed with `problem`, and nothing is booked.
 */
export interface UnusableOrder {
  id: string;
  number: string;
  /** What a person must fix, naming the line ("line_items.2: …"). */
  problem: string;
}

/** What one verified webhook says. */
export type OrderEvent =
  /**
   * `refs`: the provider's references of the payment (a Stripe payment intent and charge), kept so
   * a payout's lines, which name the payment and not the order, find the order (`payment-refs.ts`).
   */
  | { kind: "paid"; order: Order; refs?: string[] }
  /** A paid order that cannot be invoiced (see `UnusableOrder`): its run is recorded as failed. */
  | { kind: "unusable"; orderId: string; reason: string }
  | { kind: "cancelled"; orderId: string; at: string }
  | { kind: "refunded"; orderId: string; refund: Refund }
  /** Verified, well-formed, but nothing to do (an unpaid update, a test order, another topic). */
  | { kind: "ignored"; orderId: string | null; reason: string }
  /** A payment provider's payout (ledgergate's own JSON): it goes to the tenant's payouts. */
  | { kind: "payout"; event: PayoutEvent }
  /**
   * An order's payment named apart from it (Stripe's `checkout.session.completed` and
   * `invoice_payment.paid`): its references are kept for the payout that names them; the order's
   * run is not touched.
   */
  | { kind: "payment"; orderId: string; refs: string[] };
