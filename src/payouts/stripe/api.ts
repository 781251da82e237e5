/**
 * @module
 * What ledgergate reads of Stripe's API, as zod schemas declaring only the fields used: a payout,
 * a page of balance transactions, Stripe's error body.
 */
import { z } from "zod";

/**
 * Pinned on every call, so an account upgraded in Stripe's dashboard cannot change what is read.
 * The first version without `charge.invoice`; the fields read are the same in later ones.
 */
export const STRIPE_API_VERSION = "2025-03-31.basil";

export const StripePayout = z.object({
  id: z.string().min(1).max(100),
  object: z.literal("payout").optional(),
  amount: z.int(),
  currency: z.string().regex(/^[a-zA-Z]{3}$/),
  arrival_date: z.int(),
  created: z.int().optional(),
  automatic: z.boolean(),
  method: z.string().default("standard"),
  status: z.string(),
  reconciliation_status: z
    .enum(["completed", "in_progress", "not_applicable"])
    .default("not_applicable"),
  failure_code: z.string().nullish(),
  failure_message: z.string().nullish(),
});
export type StripePayout = z.output<typeof StripePayout>;

/** An id, or the object it names when expanded. */
const Ref = z.union([z.string(), z.object({ id: z.string() })]).nullish();

/** A balance transaction's source, expanded: a charge, refund, dispute, payout or other. */
const Source = z.union([
  z.string(),
  z.object({
    id: z.string(),
    object: z.string(),
    payment_intent: Ref,
    /** A refund's and a dispute's charge. */
    charge: Ref,
  }),
]);

/** Money in or out of the Stripe balance. */
export const BalanceTransaction = z.object({
  id: z.string(),
  amount: z.int(),
  fee: z.int(),
  net: z.int(),
  currency: z.string().regex(/^[a-zA-Z]{3}$/),
  type: z.string(),
  /** Stripe's grouping "for accounting purposes", finer than `type`. */
  reporting_category: z.string(),
  source: Source.nullish(),
});
export type BalanceTransaction = z.output<typeof BalanceTransaction>;

/** A page of Stripe's cursor paging (`has_more`, then `starting_after` the last id). */
export const BalanceTransactionPage = z.object({
  data: z.array(BalanceTransaction),
  has_more: z.boolean(),
});

export const StripeErrorBody = z.object({
  error: z.object({
    type: z.string().nullish(),
    code: z.string().nullish(),
    message: z.string().nullish(),
    param: z.string().nullish(),
  }),
});

export const idOf = (ref: z.output<typeof Ref> | undefined): string | null =>
  ref == null ? null : typeof ref === "string" ? ref : ref.id;
