/**
 * @module
 * What ledgergate reads of Stripe's API, as zod schemas: a payout (`GET /v1/payouts/{id}`), a page
 * of balance transactions (`GET /v1/balance_transactions?payout=…`) with their sources expanded,
 * and Stripe's error body. Only the fields used are declared; the rest of each object passes
 * through unread. Amounts are integers in the currency's smallest unit, currencies lower case.
 */
import { z } from "zod";

/**
 * The API version every call is pinned to (`Stripe-Version`), so an account upgraded in Stripe's
 * dashboard cannot change what the gateway reads. 2025-03-31.basil is the first version without
 * `charge.invoice` (which is why a charge is linked to its order through its payment intent, see
 * `payouts/stripe/lines.ts`); the fields read here (the payout, a balance transaction and its
 * `reporting_category`, a charge's, refund's or dispute's `payment_intent`) are the same in it and
 * in the versions after it.
 */
export const STRIPE_API_VERSION = "2025-03-31.basil";

/** A payout, as `GET /v1/payouts/{id}` and the `payout.*` events carry it. */
export const StripePayout = z.object({
  id: z.string().min(1).max(100),
  object: z.literal("payout").optional(),
  amount: z.int(),
  currency: z.string().regex(/^[a-zA-Z]{3}$/),
  arrival_date: z.int(),
  created: z.int().optional(),
  /** False: made on request (manual), so Stripe cannot say which transactions it holds. */
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

/** An id, or the object it names when expanded (`expand[]=data.source`). */
const Ref = z.union([z.string(), z.object({ id: z.string() })]).nullish();

/** The source of a balance transaction, expanded: a charge, refund, dispute, payout or other. */
const Source = z.union([
  z.string(),
  z.object({
    id: z.string(),
    object: z.string(),
    /** A charge's, a refund's and a dispute's payment intent (null for a charge made without). */
    payment_intent: Ref,
    /** A refund's and a dispute's charge. */
    charge: Ref,
  }),
]);

/** One balance transaction: money in or out of the Stripe balance. */
export const BalanceTransaction = z.object({
  id: z.string(),
  amount: z.int(),
  fee: z.int(),
  net: z.int(),
  currency: z.string().regex(/^[a-zA-Z]{3}$/),
  type: z.string(),
  /** Stripe's grouping "for accounting purposes" (its word), finer than `type`. */
  reporting_category: z.string(),
  source: Source.nullish(),
});
export type BalanceTransaction = z.output<typeof BalanceTransaction>;

/** A page of a list: Stripe's cursor paging (`has_more`, then `starting_after` the last id). */
export const BalanceTransactionPage = z.object({
  data: z.array(BalanceTransaction),
  has_more: z.boolean(),
});

/** Stripe's error body. */
export const StripeErrorBody = z.object({
  error: z.object({
    type: z.string().nullish(),
    code: z.string().nullish(),
    message: z.string().nullish(),
    param: z.string().nullish(),
  }),
});

/** The id of a reference, whether Stripe sent the id or the expanded object. */
export const idOf = (ref: z.output<typeof Ref> | undefined): string | null =>
  ref == null ? null : typeof ref === "string" ? ref : ref.id;
