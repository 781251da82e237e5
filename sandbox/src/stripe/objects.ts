/**
 * @module
 * The stand-in's Stripe objects, shaped as Stripe's API answers them (the fields a reconciling
 * integration reads, and the common ones around them): charges, refunds, balance transactions and
 * payouts. Amounts are integers in the currency's smallest unit, currencies lower case, times unix
 * seconds. Ids are Stripe's prefix and 24 random letters and digits, upper and lower case, as
 * Stripe's are: a client that lower-cases a path loses them.
 */

/** A JSON object as the stand-in stores and answers it. */
export type StripeObject = Record<string, unknown>;

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A new id with Stripe's `prefix` (`ch`, `re`, `txn`, `po`, `pi`). */
export function stripeId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `${prefix}_1${Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("")}`;
}

/** Unix seconds of `now`. */
export const unix = (now: Date) => Math.floor(now.getTime() / 1000);

/** A succeeded charge of `amount` paid with `paymentIntent`. */
export function charge(o: {
  id: string;
  amount: number;
  currency: string;
  paymentIntent: string;
  txn: string;
  created: number;
}): StripeObject {
  return {
    id: o.id,
    object: "charge",
    amount: o.amount,
    amount_captured: o.amount,
    amount_refunded: 0,
    balance_transaction: o.txn,
    captured: true,
    created: o.created,
    currency: o.currency,
    customer: null,
    description: null,
    livemode: false,
    metadata: {},
    paid: true,
    payment_intent: o.paymentIntent,
    refunded: false,
    status: "succeeded",
  };
}

/** A succeeded refund of `amount` of `charge`. */
export function refund(o: {
  id: string;
  amount: number;
  currency: string;
  charge: string;
  paymentIntent: string | null;
  txn: string;
  created: number;
}): StripeObject {
  return {
    id: o.id,
    object: "refund",
    amount: o.amount,
    balance_transaction: o.txn,
    charge: o.charge,
    created: o.created,
    currency: o.currency,
    metadata: {},
    payment_intent: o.paymentIntent,
    reason: "requested_by_customer",
    status: "succeeded",
  };
}

/** A balance transaction: money in or out of the balance, `net` = `amount` − `fee`. */
export function balanceTransaction(o: {
  id: string;
  amount: number;
  fee: number;
  currency: string;
  type: string;
  category: string;
  source: string | null;
  description: string | null;
  created: number;
}): StripeObject {
  return {
    id: o.id,
    object: "balance_transaction",
    amount: o.amount,
    available_on: o.created,
    created: o.created,
    currency: o.currency,
    description: o.description,
    exchange_rate: null,
    fee: o.fee,
    fee_details:
      o.fee === 0
        ? []
        : [
            {
              amount: o.fee,
              application: null,
              currency: o.currency,
              description: "Stripe processing fees",
              type: "stripe_fee",
            },
          ],
    net: o.amount - o.fee,
    reporting_category: o.category,
    source: o.source,
    status: "available",
    type: o.type,
  };
}

/** A payout of `amount` arriving on `arrival` (unix seconds, midnight UTC of the bank's day). */
export function payout(o: {
  id: string;
  amount: number;
  currency: string;
  automatic: boolean;
  method: string;
  reconciliation: string;
  arrival: number;
  txn: string;
  created: number;
}): StripeObject {
  return {
    id: o.id,
    object: "payout",
    amount: o.amount,
    arrival_date: o.arrival,
    automatic: o.automatic,
    balance_transaction: o.txn,
    created: o.created,
    currency: o.currency,
    description: o.automatic ? "STRIPE PAYOUT" : null,
    destination: "ba_1SandboxBankAccountNO00",
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: {},
    method: o.method,
    original_payout: null,
    reconciliation_status: o.reconciliation,
    reversed_by: null,
    source_type: "card",
    statement_descriptor: null,
    status: "paid",
    trace_id: { status: "supported", value: `TRACE${o.created}` },
    type: "bank_account",
  };
}
