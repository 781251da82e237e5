/**
 * @module
 * ledgergate's own order JSON (`docs/order-json.md`). Strict: unknown fields are refused, so a
 * misspelt field fails loudly. Money is a decimal string with at most two decimals, so no float
 * arithmetic and no hidden rounding rule.
 */
import { z } from "zod";
import { senderSignError } from "../../payouts/rules";
import { toMinor } from "../../ledger/money";
import { VatClass } from "../order";
import { normalizeOrgNumber } from "../orgnr";
import { IsoDateTime } from "./payload";

const DECIMAL = /^\d+(\.\d{1,2})?$/;
const SIGNED_DECIMAL = /^-?\d+(\.\d{1,2})?$/;
const decimalMessage = 'expected a decimal string with at most two decimals, like "199.00"';

/** A non-negative decimal string, to minor units. */
const Amount = z
  .string()
  .regex(DECIMAL, decimalMessage)
  .transform((s) => toMinor(s) ?? 0);

/** A decimal string that may be negative (a fee can be a deduction), to minor units. */
const SignedAmount = z
  .string()
  .regex(SIGNED_DECIMAL, decimalMessage)
  .transform((s) => toMinor(s) ?? 0);

const Ref = z.string().regex(/^[\x21-\x7e]{1,100}$/, "expected 1–100 printable ASCII characters");

const Name = z.string().trim().min(1).max(500);
const OptionalText = z.string().trim().min(1).max(500).nullable().default(null);

const Address = z.strictObject({
  line1: OptionalText,
  line2: OptionalText,
  zip: OptionalText,
  city: OptionalText,
  countryCode: z
    .string()
    .regex(/^[A-Z]{2}$/, "expected ISO 3166-1 alpha-2, upper case")
    .nullable()
    .default(null),
});

const Buyer = z.strictObject({
  id: Ref.nullable().default(null),
  email: z.email().nullable().default(null),
  firstName: OptionalText,
  lastName: OptionalText,
  company: OptionalText,
  organizationNumber: z
    .string()
    .nullable()
    .default(null)
    .transform((s, ctx) => {
      if (s === null) return null;
      const digits = normalizeOrgNumber(s);
      if (digits === null)
        ctx.addIssue({ code: "custom", message: "expected a 9-digit organization number" });
      return digits;
    }),
  phone: OptionalText,
  address: Address.nullable().default(null),
});

const Line = z.strictObject({
  id: Ref,
  sku: Ref.nullable().default(null),
  name: Name,
  quantity: z.int().positive(),
  unitPrice: Amount,
  discount: Amount.default(0),
  vat: VatClass,
});
const Shipping = z.strictObject({
  id: Ref,
  name: Name,
  price: Amount,
  discount: Amount.default(0),
  vat: VatClass,
});
const Fee = z.strictObject({ id: Ref, name: Name, amount: SignedAmount, vat: VatClass });

/** `data` of `order.paid`: the whole order. */
export const StandardOrder = z.strictObject({
  id: Ref,
  number: Name,
  placedAt: IsoDateTime,
  /** Defaults to the event's timestamp. */
  paidAt: IsoDateTime.nullable().optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, "expected ISO 4217, upper case"),
  taxIncluded: z.boolean(),
  buyer: Buyer,
  lines: z.array(Line).min(1).max(500),
  shipping: z.array(Shipping).max(20).default([]),
  fees: z.array(Fee).max(20).default([]),
  total: Amount,
  /** How the buyer paid ("vipps", "klarna", "card"…): it picks the clearing account. */
  paymentMethod: z.string().trim().min(1).max(100).optional(),
});
export type StandardOrder = z.output<typeof StandardOrder>;

/** `data` of `order.cancelled`. */
export const StandardCancel = z.strictObject({ orderId: Ref, at: IsoDateTime.optional() });

const RefundLine = z.strictObject({
  /** The refunded line's `id` (item, shipping or fee); null for an amount not tied to a line. */
  lineId: Ref.nullable(),
  name: Name,
  quantity: z.int().positive().default(1),
  amount: Amount.refine((n) => n > 0, "must be more than 0"),
  vat: VatClass,
});

/** `data` of `order.refunded`: money back, VAT included. */
export const StandardRefund = z.strictObject({
  orderId: Ref,
  id: Ref,
  /** Defaults to the event's timestamp. */
  at: IsoDateTime.optional(),
  lines: z.array(RefundLine).max(500).default([]),
  total: Amount.refine((n) => n > 0, "must be more than 0"),
});
export type StandardRefund = z.output<typeof StandardRefund>;

/** The envelope Standard Webhooks recommends; `data` is checked by `type`. */
export const StandardEnvelope = z.strictObject({
  type: z.string().min(1).max(100),
  timestamp: IsoDateTime,
  data: z.unknown(),
});

const IsoDate = z.iso.date();

/** One line of `payout.paid` (see `docs/order-json.md`), signed as a ledger signs it. */
const PayoutLineJson = z
  .strictObject({
    type: z.enum(["charge", "refund", "fee", "adjustment", "dispute"]),
    orderId: Ref.nullable().default(null),
    refundId: Ref.nullable().default(null),
    /** Gross: charges positive; refunds, fees and losses negative. */
    amount: SignedAmount,
    /** The provider's fee on the line, a cost: 0 or more (a fee given back is an adjustment). */
    fee: SignedAmount.default(0),
  })
  .superRefine((l, ctx) => {
    const wrong = senderSignError(l);
    if (wrong) ctx.addIssue({ code: "custom", path: [wrong.field], message: wrong.message });
  });

/**
 * Most lines one payout may have: a busy shop's daily payout has hundreds; at this many the record
 * stays well inside one stored row (2 MB) and one delivery (2 MiB).
 */
export const MAX_PAYOUT_LINES = 5_000;

/** `data` of `payout.paid`: the deposit and its lines. */
export const StandardPayout = z.strictObject({
  id: Ref,
  provider: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]{0,49}$/, "expected a lower-case name such as stripe or vipps"),
  currency: z.string().regex(/^[A-Z]{3}$/, "expected ISO 4217, upper case"),
  amount: SignedAmount,
  arrivalDate: IsoDate,
  /** The source whose orders the lines name; the payout's own (`standard`) when left out. */
  orderSource: z.enum(["shopify", "woocommerce", "stripe", "standard"]).default("standard"),
  lines: z.array(PayoutLineJson).min(1).max(MAX_PAYOUT_LINES),
});
export type StandardPayout = z.output<typeof StandardPayout>;

/** `data` of `payout.failed`: the payout the bank sent back. */
export const StandardPayoutFailed = z.strictObject({
  id: Ref,
  at: IsoDateTime.optional(),
  reason: z.string().trim().min(1).max(500).optional(),
});
