/**
 * Stripe's events that name an invoice's payment apart from it
 * (`orders/adapters/stripe-payments.ts`): a Checkout Session's and an InvoicePayment's invoice and
 * payment become one link; one without an invoice or a payment is ignored, saying why; a malformed
 * object is refused.
 */
import { describe, expect, it } from "vitest";
import { stripePaymentEvents } from "../../../src/orders/adapters/stripe-payments";

describe("Stripe payment links", () => {
  it("checkout.session.completed links the payment intent and the session to the invoice", () => {
    const r = stripePaymentEvents("checkout.session.completed", {
      id: "cs_test_1",
      invoice: "in_1",
      payment_intent: { id: "pi_1" },
    });
    expect(r).toEqual({
      ok: true,
      value: [{ kind: "payment", orderId: "in_1", refs: ["pi_1", "cs_test_1"] }],
    });
  });

  it("invoice_payment.paid links the payment's intent and charge", () => {
    const r = stripePaymentEvents("invoice_payment.paid", {
      id: "inpay_1",
      invoice: { id: "in_2" },
      payment: { type: "payment_intent", payment_intent: "pi_2", charge: "ch_2" },
    });
    expect(r).toEqual({
      ok: true,
      value: [{ kind: "payment", orderId: "in_2", refs: ["pi_2", "ch_2"] }],
    });
  });

  it("a session without an invoice, or without a payment yet, is ignored, saying why", () => {
    const noInvoice = stripePaymentEvents("checkout.session.completed", {
      id: "cs_test_2",
      invoice: null,
      payment_intent: "pi_3",
    });
    expect(noInvoice).toMatchObject({
      ok: true,
      value: [{ kind: "ignored", orderId: null, reason: expect.stringMatching(/no invoice/) }],
    });
    const unpaid = stripePaymentEvents("checkout.session.completed", {
      id: "cs_test_3",
      invoice: "in_3",
      payment_intent: null,
    });
    expect(unpaid).toMatchObject({
      ok: true,
      value: [{ kind: "ignored", orderId: "in_3", reason: expect.stringMatching(/no payment/) }],
    });
  });

  it("an object that is not one is refused", () => {
    const r = stripePaymentEvents("invoice_payment.paid", { invoice: "in_4" });
    expect(r.ok).toBe(false);
  });
});
