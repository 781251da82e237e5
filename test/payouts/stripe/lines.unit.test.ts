/**
 * Stripe's balance transactions as payout lines (`payouts/stripe/lines.ts`): each by its
 * `reporting_category`, linked to its order's payment through its expanded source; the payout's
 * own transaction left out (it is the deposit); another currency refused, naming the transaction.
 */
import { describe, expect, it } from "vitest";
import { stripeLines } from "../../../src/payouts/stripe/lines";
import type { BalanceTransaction } from "../../../src/payouts/stripe/api";

const bt = (
  id: string,
  reporting_category: string,
  amount: number,
  fee: number,
  source: BalanceTransaction["source"],
  currency = "nok",
): BalanceTransaction => ({
  id,
  amount,
  fee,
  net: amount - fee,
  currency,
  type: reporting_category,
  reporting_category,
  source,
});

describe("Stripe lines", () => {
  it("classifies by reporting_category and links charges, refunds and disputes through their payment intent", () => {
    const r = stripeLines("po_1", "NOK", [
      bt("txn_1", "charge", 10_000, 440, { id: "ch_1", object: "charge", payment_intent: "pi_1" }),
      bt("txn_2", "charge", 5_000, 320, { id: "ch_2", object: "charge", payment_intent: null }),
      bt("txn_3", "refund", -2_000, 0, {
        id: "re_1",
        object: "refund",
        payment_intent: { id: "pi_1" },
        charge: "ch_1",
      }),
      bt("txn_4", "fee", -1_500, 0, "fee_1"),
      bt("txn_5", "dispute", -5_000, 1_500, {
        id: "du_1",
        object: "dispute",
        payment_intent: "pi_2",
        charge: "ch_2",
      }),
      bt("txn_6", "transfer_reversal", 300, 0, "trr_1"),
      bt("txn_7", "payout", -10_000, 0, { id: "po_1", object: "payout" }),
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.lines).toEqual([
      {
        type: "charge",
        orderId: null,
        refundId: null,
        amount: 10_000,
        fee: 440,
        paymentRef: "pi_1",
      },
      // A charge made without a payment intent is its own reference.
      {
        type: "charge",
        orderId: null,
        refundId: null,
        amount: 5_000,
        fee: 320,
        paymentRef: "ch_2",
      },
      {
        type: "refund",
        orderId: null,
        refundId: "re_1",
        amount: -2_000,
        fee: 0,
        paymentRef: "pi_1",
      },
      { type: "fee", orderId: null, refundId: null, amount: -1_500, fee: 0 },
      {
        type: "dispute",
        orderId: null,
        refundId: null,
        amount: -5_000,
        fee: 1_500,
        paymentRef: "pi_2",
      },
      { type: "adjustment", orderId: null, refundId: null, amount: 300, fee: 0 },
    ]);
    expect(r.value.categories).toEqual({
      charge: 2,
      refund: 1,
      fee: 1,
      dispute: 1,
      transfer_reversal: 1,
      payout: 1,
    });
  });

  it("keeps another payout's transaction (a failed payout's return) as an adjustment", () => {
    const r = stripeLines("po_1", "NOK", [
      bt("txn_8", "payout", 4_000, 0, { id: "po_0", object: "payout" }),
    ]);
    expect(r.ok && r.value.lines).toEqual([
      { type: "adjustment", orderId: null, refundId: null, amount: 4_000, fee: 0 },
    ]);
  });

  it("refuses a transaction in another currency than the payout's, naming it", () => {
    const r = stripeLines("po_1", "NOK", [bt("txn_9", "charge", 100, 0, "ch_9", "eur")]);
    expect(r).toEqual({
      ok: false,
      error: "balance transaction txn_9 is in EUR, payout po_1 in NOK",
    });
  });
});
