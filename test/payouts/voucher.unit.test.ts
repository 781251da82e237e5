/**
 * The payout's voucher (`src/payouts/voucher.ts`): it balances, in the payout's currency when
 * every line is in it, and in the base currency with a gain or loss line when the orders were in
 * another; lines of nothing are left out; what it needs is the accounts it names.
 */
import { describe, expect, it } from "vitest";
import type { BookingPlan } from "../../src/payouts/plan";
import { planAccounts, voucherOf } from "../../src/payouts/voucher";

const IDS = {
  accounts: { 1920: 11, 1904: 12, 7770: 13, 7790: 14, 7830: 15, 8060: 16, 8160: 17 },
  noVatId: 1,
  feeVatId: 1,
};
const plan = (p: Partial<BookingPlan> = {}): BookingPlan => ({
  reference: "lg:std:po:po_1",
  date: "2026-03-04",
  currency: "NOK",
  description: "stripe payout po_1",
  deposit: 146_300,
  bankAccount: 1920,
  clearing: [
    { accountNo: 1904, currency: "NOK", date: null, amount: 150_000, orders: 2, refunds: 0 },
  ],
  fees: 3_700,
  adjustments: 0,
  disputes: 0,
  feeAccount: 7770,
  feeVatCode: "0",
  adjustmentAccount: 7790,
  disputeAccount: 7830,
  gainAccount: 8060,
  lossAccount: 8160,
  rates: [],
  ...p,
});
const amounts = (body: ReturnType<typeof voucherOf>["body"]) =>
  (body.VoucherLines ?? []).map((l) => [
    l.AccountId,
    l.CurrencyAmount,
    l.CurrencyCode,
    l.CurrencyExchangeRate,
  ]);

describe("voucherOf", () => {
  it("one currency: bank = deposit, clearing credited, fees debited; it balances; zero lines left out", () => {
    const { body, currencyDifference } = voucherOf(plan(), IDS, {});
    expect(body).toMatchObject({
      VoucherDate: "2026-03-04",
      CurrencyCode: "NOK",
      ExternalImportReference: "lg:std:po:po_1",
    });
    expect(amounts(body)).toEqual([
      [11, 1463, "NOK", undefined],
      [12, -1500, "NOK", undefined],
      [13, 37, "NOK", undefined],
    ]);
    expect(currencyDifference).toBe(0);
    expect(body.VoucherLines?.every((l) => l.PostingDate === "2026-03-04" && l.VatId === 1)).toBe(
      true,
    );
  });

  it("orders in EUR, payout in NOK: the credit at its settlement's rate, the rest a gain or a loss", () => {
    const fx = (deposit: number) =>
      voucherOf(
        plan({
          deposit,
          fees: 0,
          clearing: [
            {
              accountNo: 1904,
              currency: "EUR",
              date: "2026-03-02",
              amount: 10_000,
              orders: 1,
              refunds: 0,
            },
          ],
          rates: [{ currency: "EUR", date: "2026-03-02" }],
        }),
        IDS,
        { "EUR:2026-03-02": 11.65 },
      );
    const loss = fx(115_000);
    expect(amounts(loss.body)).toEqual([
      [11, 1150, "NOK", undefined],
      [12, -100, "EUR", 11.65],
      [17, 15, "NOK", undefined],
    ]);
    expect(loss.currencyDifference).toBe(1_500);
    const gain = fx(117_000);
    expect(amounts(gain.body).at(-1)).toEqual([16, -5, "NOK", undefined]);
    expect(gain.currencyDifference).toBe(-500);
  });

  it("the fee lines take the mapping's VAT code", () => {
    const { body } = voucherOf(plan({ feeVatCode: "86" }), { ...IDS, feeVatId: 9 }, {});
    expect(body.VoucherLines?.map((l) => l.VatId)).toEqual([1, 1, 9]);
  });

  it("refuses to build without an id or a rate it needs", () => {
    expect(() => voucherOf(plan({ bankAccount: 1930 }), IDS, {})).toThrow(/no id for account 1930/);
    expect(() =>
      voucherOf(
        plan({ rates: [{ currency: "EUR", date: "2026-03-04" }], currency: "EUR" }),
        IDS,
        {},
      ),
    ).toThrow(/no rate for EUR/);
  });
});

describe("planAccounts", () => {
  it("names the accounts the voucher posts to, each once, gain and loss only across currencies", () => {
    expect(planAccounts(plan())).toEqual([1920, 1904, 7770]);
    expect(
      planAccounts(plan({ adjustments: 1, disputes: 1, rates: [{ currency: "EUR", date: "x" }] })),
    ).toEqual([1920, 1904, 7770, 7790, 7830, 8060, 8160]);
  });
});
