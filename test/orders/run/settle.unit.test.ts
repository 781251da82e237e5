/**
 * The settlement voucher (`src/orders/run/settle.ts`): a lone order's is its two lines; a batch's
 * has each order's customer line, matched to its invoice, and one clearing line per clearing
 * account, currency and day, so two providers' orders make two clearing lines.
 */
import { describe, expect, it } from "vitest";
import { settlementVoucher, type Settlement } from "../../../src/orders/run/settle";

const item = (
  invoiceNo: number,
  amount: number,
  clearingId: number,
  date = "2026-03-01",
): Settlement => ({
  reference: `lg:o:${invoiceNo}`,
  invoiceNo,
  amount,
  currency: "NOK",
  date,
  customerAccountId: 500,
  description: `standard W-${invoiceNo}`,
  settlementAccountId: clearingId,
  noVatId: 9,
});
const VIPPS = 1906_0;
const KLARNA = 1907_0;

describe("settlementVoucher", () => {
  it("a lone order: its clearing line and its customer line, as a lone run posts them", () => {
    const v = settlementVoucher("lg:o:1", [item(1, 100_00, VIPPS)]);
    expect(v.VoucherLines).toEqual([
      expect.objectContaining({
        AccountId: VIPPS,
        CurrencyAmount: 100,
        Description: "standard W-1",
      }),
      expect.objectContaining({ AccountId: 500, CurrencyAmount: -100, InvoiceNo: "1" }),
    ]);
  });

  it("orders of two providers: one clearing line per provider, each order's customer line", () => {
    const v = settlementVoucher("lg:batch:1", [
      item(1, 100_00, VIPPS),
      item(2, 50_00, KLARNA),
      item(3, 200_00, VIPPS),
      item(4, 25_00, KLARNA),
    ]);
    const clearing = (v.VoucherLines ?? []).filter((l) => l.AccountId !== 500);
    expect(clearing).toEqual([
      expect.objectContaining({
        AccountId: VIPPS,
        CurrencyAmount: 300,
        Description: "Settlements of 2 shop orders",
      }),
      expect.objectContaining({ AccountId: KLARNA, CurrencyAmount: 75 }),
    ]);
    expect(
      (v.VoucherLines ?? []).filter((l) => l.AccountId === 500).map((l) => l.InvoiceNo),
    ).toEqual(["1", "2", "3", "4"]);
    // Balanced: what the clearing accounts take, the customers' invoices give.
    expect(
      (v.VoucherLines ?? []).reduce((n, l) => n + Math.round(Number(l.CurrencyAmount) * 100), 0),
    ).toBe(0);
  });

  it("a provider's orders of two days keep a line each, on its own day", () => {
    const v = settlementVoucher("lg:batch:2", [
      item(1, 100_00, VIPPS, "2026-03-01"),
      item(2, 100_00, VIPPS, "2026-03-02"),
    ]);
    expect(
      (v.VoucherLines ?? []).filter((l) => l.AccountId === VIPPS).map((l) => l.PostingDate),
    ).toEqual(["2026-03-01", "2026-03-02"]);
    expect(v.VoucherDate).toBe("2026-03-02");
  });
});
