/**
 * A Vipps ledger's rows made into payouts (`src/payouts/vipps/rows.ts`): rows are carried date to
 * date until a payout row pays the balance out, so the payout's lines add up to its deposit; a
 * reference loses the shop's prefix; an entry type not known is an `unknown` line; a balance from
 * before the ledger was first read is a line of its own, unknown; gross settlement's fees are
 * counted as left for the invoice.
 */
import { describe, expect, it } from "vitest";
import type { Row } from "../../../src/payouts/vipps/api";
import { NOTHING_CARRIED, orderIdOf, readDate } from "../../../src/payouts/vipps/rows";

/** Rows of one date from (entryType, reference, amount), balances running from `start`. */
function rowsOf(date: string, start: number, specs: [string, string, number][]): Row[] {
  let b = start;
  return specs.map(([entryType, reference, amount], i) => {
    const r = {
      pspReference: `${date}-${i}`,
      ledgerDate: date,
      entryType,
      reference,
      currency: "NOK",
      amount,
      balanceBefore: b,
      balanceAfter: b + amount,
    };
    b += amount;
    return r;
  });
}

const sum = (lines: { amount: number }[]) => lines.reduce((n, l) => n + l.amount, 0);

describe("Vipps rows to payouts", () => {
  it("a day's captures, refund and fees make one payout whose lines add up to it", () => {
    const funds = rowsOf("2026-11-02", 0, [
      ["capture", "Woo-1", 50_000],
      ["refund", "Woo-0", -10_000],
      ["fees-retained", "", -1_000],
      ["payout-scheduled", "bank", -39_000],
    ]);
    const read = readDate(NOTHING_CARRIED, "2026-11-02", funds, [], "Woo-");
    expect(read.payouts).toHaveLength(1);
    const [p] = read.payouts;
    expect(p?.amount).toBe(39_000);
    expect(sum(p?.lines ?? [])).toBe(39_000);
    expect(p?.lines.map((l) => [l.type, l.orderId])).toEqual([
      ["charge", "1"],
      ["refund", "0"],
      ["fee", null],
    ]);
    expect(read.carried).toEqual({ lines: [], dates: [], balanceIn: 0, feesInvoiced: 0 });
  });

  it("a negative day is carried, and the next day's payout holds its rows and says what came in", () => {
    const d1 = readDate(
      NOTHING_CARRIED,
      "2026-11-02",
      rowsOf("2026-11-02", 0, [["refund", "7", -20_000]]),
      [],
      "",
    );
    expect(d1.payouts).toEqual([]);
    expect(d1.balanceAfter).toBe(-20_000);
    const d2 = readDate(
      d1.carried,
      "2026-11-03",
      rowsOf("2026-11-03", -20_000, [
        ["capture", "8", 50_000],
        ["payout-scheduled", "bank", -30_000],
      ]),
      [],
      "",
    );
    const [p] = d2.payouts;
    expect(p).toMatchObject({
      amount: 30_000,
      dates: ["2026-11-02", "2026-11-03"],
      carriedIn: -20_000,
    });
    expect(sum(p?.lines ?? [])).toBe(30_000);
  });

  it("an entry type not known is an unknown line; a payout row's older name is a payout too", () => {
    const read = readDate(
      NOTHING_CARRIED,
      "2026-11-02",
      rowsOf("2026-11-02", 0, [
        ["capture", "1", 1_000],
        ["interest-credited", "", 5],
        ["correction", "", -5],
        ["scheduled-for-payout", "bank", -1_000],
      ]),
      [],
      "",
    );
    expect(read.unknown).toBe(1);
    expect(read.payouts[0]?.lines.map((l) => [l.type, l.entryType])).toEqual([
      ["charge", "capture"],
      ["unknown", "interest-credited"],
      ["adjustment", "correction"],
    ]);
  });

  it("a balance from before the first date read is an unknown line: the deposit is explained and held", () => {
    const read = readDate(
      NOTHING_CARRIED,
      "2026-11-02",
      rowsOf("2026-11-02", 7_000, [
        ["capture", "1", 1_000],
        ["payout-scheduled", "bank", -8_000],
      ]),
      [],
      "",
    );
    const lines = read.payouts[0]?.lines ?? [];
    expect(lines[0]).toMatchObject({
      type: "unknown",
      amount: 7_000,
      entryType: "balance before 2026-11-02",
    });
    expect(sum(lines)).toBe(8_000);
  });

  it("gross settlement's capture fees, not retained, are counted for the invoice", () => {
    const fees = rowsOf("2026-11-02", 0, [
      ["capture-fee", "1", -300],
      ["capture-fee", "2", -200],
    ]);
    const funds = rowsOf("2026-11-02", 0, [
      ["capture", "1", 10_000],
      ["capture", "2", 5_000],
      ["payout-scheduled", "bank", -15_000],
    ]);
    const read = readDate(NOTHING_CARRIED, "2026-11-02", funds, fees, "");
    expect(read.feesInvoiced).toBe(500);
    expect(read.payouts[0]?.feesInvoiced).toBe(500);
    // Net settlement retains them: nothing is left for an invoice.
    const net = rowsOf("2026-11-02", 0, [
      ["capture-fee", "1", -300],
      ["fees-retained", "", 300],
    ]);
    expect(readDate(NOTHING_CARRIED, "2026-11-02", funds, net, "").feesInvoiced).toBe(0);
  });

  it("takes the shop's prefix off a reference, and only a prefix", () => {
    expect(orderIdOf("Woo-1234", "Woo-")).toBe("1234");
    expect(orderIdOf("1234", "Woo-")).toBe("1234");
    expect(orderIdOf("x-Woo-1", "Woo-")).toBe("x-Woo-1");
  });
});
