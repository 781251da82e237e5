/**
 * A payout's rules (`src/payouts/rules.ts`): by its verified source, the orders it may name and
 * whether it must pay out one, and which held payouts the operator may confirm; and the signs a
 * sender's lines may have, refused at the Standard payout's intake.
 */
import { describe, expect, it } from "vitest";
import { parseSigned } from "../orders/adapters/security";
import { confirmable, payoutRules, senderSignError } from "../../src/payouts/rules";
import type { PayoutIssue } from "../../src/payouts/records";
import { payoutPaid } from "../fixtures/orders/payouts";

describe("payoutRules", () => {
  it("a Standard payout may name standard, Shopify and WooCommerce orders; Stripe's only Stripe's", () => {
    expect(payoutRules("standard").orderSources).toEqual(["standard", "shopify", "woocommerce"]);
    expect(payoutRules("stripe").orderSources).toEqual(["stripe"]);
    expect(payoutRules("shopify").orderSources).toEqual([]);
  });

  it("every source's payout must pay out an order", () => {
    for (const s of ["standard", "stripe", "shopify", "woocommerce"] as const)
      expect(payoutRules(s).requiresOrders).toBe(true);
  });
});

describe("confirmable", () => {
  const issue = (reason: PayoutIssue["reason"]): PayoutIssue => ({
    line: null,
    orderId: null,
    refundId: null,
    reason,
    detail: reason,
  });
  const held = { state: "unmatched" as const, failed: null, issues: [issue("needs-orders")] };

  it("a payout held unmatched because it pays out no order", () => {
    expect(confirmable(held)).toBe(true);
  });

  it("not one held for anything else, in another state, or failed at the provider", () => {
    for (const r of [
      { ...held, issues: [issue("deposit-differs")] },
      { ...held, issues: [issue("other-source")] },
      { ...held, issues: [] },
      { ...held, state: "booked" as const },
      { ...held, state: "received" as const },
      { ...held, failed: { at: "2026-03-05T06:00:00.000Z", reason: null } },
    ])
      expect(confirmable(r), JSON.stringify(r)).toBe(false);
  });
});

describe("senderSignError", () => {
  const line = (
    type: "charge" | "refund" | "fee" | "adjustment" | "dispute",
    amount: number,
    fee = 0,
  ) => senderSignError({ type, amount, fee });

  it("takes lines signed as a ledger signs them, and zero", () => {
    for (const l of [
      line("charge", 10_000, 240),
      line("refund", -2_000),
      line("fee", -200),
      line("adjustment", 1_000),
      line("adjustment", -1_000),
      line("dispute", -5_000, 1_500),
      line("dispute", 5_000),
      line("charge", 0),
      line("fee", 0),
    ])
      expect(l).toBeNull();
  });

  it("refuses a negative fee, a negative charge, a positive refund and a positive fee line", () => {
    expect(line("charge", 10_000, -5_000_000)).toMatchObject({ field: "fee" });
    expect(line("adjustment", 100, -1)).toMatchObject({ field: "fee" });
    expect(line("charge", -100)).toMatchObject({ field: "amount" });
    expect(line("refund", 100)).toMatchObject({ field: "amount" });
    expect(line("fee", 5_000_000)).toMatchObject({ field: "amount" });
  });

  it("the Standard payout's intake refuses such a line with 400, naming it", async () => {
    for (const [l, field] of [
      [{ type: "charge", orderId: "o-1", amount: "100.00", fee: "-50000.00" }, "lines.0.fee"],
      [{ type: "fee", amount: "50000.00" }, "lines.0.amount"],
      [{ type: "refund", orderId: "o-1", refundId: "r-1", amount: "10.00" }, "lines.0.amount"],
      [{ type: "charge", orderId: "o-1", amount: "-10.00" }, "lines.0.amount"],
    ] as const) {
      const r = await parseSigned("standard", payoutPaid("po_1", [l]));
      if (r.ok) throw new Error(`accepted ${JSON.stringify(l)}`);
      expect(r.error).toMatchObject({ status: 400, detail: expect.stringContaining(field) });
    }
  });
});
