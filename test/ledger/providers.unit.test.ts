/**
 * Who pays an order out (`src/ledger/providers.ts`) and where its money waits
 * (`clearingOf`, `clearingClash` in `src/ledger/mapping.ts`).
 */
import { describe, expect, it } from "vitest";
import { clearingClash, clearingOf, resolveMapping } from "../../src/ledger/mapping";
import { providerOf } from "../../src/ledger/providers";

const rules = { paymentMethods: {}, unknownPaymentMethod: "other" as const };

describe("providerOf", () => {
  it.each([
    ["shopify", "Vipps", "vipps"],
    ["shopify", "Vipps MobilePay", "vipps"],
    ["woocommerce", "vipps", "vipps"],
    ["woocommerce", "kco", "klarna"],
    ["woocommerce", "klarna_payments", "klarna"],
    ["shopify", "Klarna", "klarna"],
    ["woocommerce", "ppcp-gateway", "paypal"],
    ["shopify", "PayPal Express Checkout", "paypal"],
    ["shopify", "Nets Easy", "card"],
    ["woocommerce", "dibs_easy", "card"],
    ["standard", "card", "card"],
    // Klarna taken through WooCommerce's Stripe plugin is Stripe's payout.
    ["woocommerce", "stripe_klarna", "stripe"],
    ["shopify", "shopify_payments", "other"],
    ["standard", "bitcoin", "other"],
  ] as const)("%s %s: %s", (source, method, provider) => {
    expect(providerOf(source, method, rules)).toBe(provider);
  });

  it("a Stripe order is Stripe's whatever its method; an order that names none goes to the default", () => {
    expect(providerOf("stripe", "klarna", rules)).toBe("stripe");
    expect(providerOf("shopify", null, { ...rules, unknownPaymentMethod: "card" })).toBe("card");
    expect(providerOf("standard", undefined, rules)).toBe("other");
  });

  it("the operator's own names come first, in any case", () => {
    const own = {
      paymentMethods: { "Kort (Nets)": "card" as const, Klarna: "paypal" as const },
      unknownPaymentMethod: "other" as const,
    };
    expect(providerOf("shopify", "kort (nets)", own)).toBe("card");
    expect(providerOf("shopify", "klarna", own)).toBe("paypal");
  });
});

describe("clearingOf", () => {
  it("by provider (new tenants), by source (older ones), or one account", () => {
    const paid = { source: "woocommerce" as const, paymentMethod: "vipps" };
    expect(clearingOf(resolveMapping(), paid)).toEqual({ accountNo: 1906, provider: "vipps" });
    const bySource = resolveMapping({}, { settlementAccount: null, clearingBy: "source" });
    expect(clearingOf(bySource, paid)).toEqual({ accountNo: 1902, provider: "vipps" });
    const legacy = resolveMapping({}, { settlementAccount: 1920, clearingBy: "source" });
    expect(clearingOf(legacy, paid).accountNo).toBe(1920);
  });
});

describe("clearingClash", () => {
  const m = (input = {}) => resolveMapping(input);

  it("none for the defaults on a tenant with no orders, nor while clearing by source", () => {
    expect(clearingClash(m(), [])).toBeNull();
    expect(
      clearingClash(m({ clearingBy: "source", providerAccounts: { vipps: 1901 } }), [
        { accountNo: 1901, provider: null },
      ]),
    ).toBeNull();
  });

  it("refuses two providers on one account, and the bank", () => {
    expect(clearingClash(m({ providerAccounts: { klarna: 1906 } }), [])).toMatchObject({
      path: "providerAccounts.klarna",
      message: expect.stringContaining("account 1906 is vipps's already"),
    });
    expect(clearingClash(m({ providerAccounts: { card: 1920 } }), [])?.path).toBe(
      "providerAccounts.card",
    );
  });

  it("refuses an account that holds another provider's orders or orders from before providers, never its own", () => {
    expect(
      clearingClash(m({ providerAccounts: { vipps: 1901 } }), [
        { accountNo: 1901, provider: null },
      ]),
    ).toMatchObject({
      path: "providerAccounts.vipps",
      message: expect.stringContaining("holds orders settled by source or to one account"),
    });
    expect(
      clearingClash(m({ providerAccounts: { vipps: 1907, klarna: 1906 } }), [
        { accountNo: 1907, provider: "klarna" },
      ])?.message,
    ).toContain("klarna's orders");
    expect(clearingClash(m(), [{ accountNo: 1906, provider: "vipps" }])).toBeNull();
  });
});
