/**
 * A prepared write in words (`src/assistants/mcp/preview.ts`): each field with the value it gets,
 * money in kroner (or the body's currency) where the field is an amount, a merge patch's null as
 * removed.
 */
import { describe, expect, it } from "vitest";
import { matchOperation, type Operation } from "../../../shared/v2/catalog";
import { formatMoney, previewOf } from "../../../src/assistants/mcp/preview";

const op = (method: string, path: string): Operation => {
  const m = matchOperation(method, path);
  if (m.kind !== "operation") throw new Error(`no ${method} ${path}`);
  return m.op;
};

describe("preview: money", () => {
  it("writes an amount with two decimals, a comma, spaces between thousands and kr for NOK", () => {
    expect(formatMoney(1250.5, "NOK")).toBe("1 250,50 kr");
    expect(formatMoney(-1234567, "nok")).toBe("-1 234 567,00 kr");
    expect(formatMoney(0.1 + 0.2, "EUR")).toBe("0,30 EUR");
  });

  it("shows the amounts of a voucher in kroner, and in the currency a line names", () => {
    const body = {
      VoucherDate: "2026-11-26",
      VoucherLines: [
        { AccountId: 1, CurrencyAmount: 1250 },
        { AccountId: 2, CurrencyAmount: -100, CurrencyCode: "EUR" },
      ],
    };
    const p = previewOf(
      op("POST", "/Vouchers/ManualJournals"),
      "POST",
      "/Vouchers/ManualJournals",
      body,
      "write",
    );
    expect(p.changes).toContainEqual({
      field: "VoucherLines[0].CurrencyAmount",
      value: "1 250,00 kr",
    });
    expect(p.changes).toContainEqual({
      field: "VoucherLines[1].CurrencyAmount",
      value: "-100,00 EUR",
    });
    // An id is a number but not money.
    expect(p.changes).toContainEqual({ field: "VoucherLines[0].AccountId", value: "1" });
    expect(p.preview).toMatch(
      /^Create a manual journal \(vouchers\): POST \/Vouchers\/ManualJournals\./,
    );
    expect(p.preview).toContain("Class write");
  });
});

describe("preview: fields", () => {
  it("names each field a create sets, and says nothing was sent", () => {
    const p = previewOf(
      op("POST", "/Customers"),
      "POST",
      "/Customers",
      { Name: "Fjord AS", IsPerson: false },
      "draft",
    );
    expect(p.changes).toEqual([
      { field: "Name", value: '"Fjord AS"' },
      { field: "IsPerson", value: "false" },
    ]);
    expect(p.preview).toContain("It sets 2 fields");
    expect(p.preview).toContain("Nothing has been sent yet");
  });

  it("reads a merge patch's null as removed, and a JSON Patch by its operations", () => {
    const merge = previewOf(
      op("PATCH", "/Customers/7"),
      "PATCH",
      "/Customers/7",
      { EmailAddress: null, Name: "Ny AS" },
      "draft",
    );
    expect(merge.changes).toEqual([
      { field: "EmailAddress", value: "removed" },
      { field: "Name", value: '"Ny AS"' },
    ]);
    const patch = previewOf(
      op("PATCH", "/Products/3"),
      "PATCH",
      "/Products/3",
      [
        { op: "replace", path: "/UnitPrice", value: 99.5 },
        { op: "remove", path: "/Description" },
      ],
      "draft",
    );
    expect(patch.changes).toEqual([
      { field: "UnitPrice", value: "replace 99,50 kr" },
      { field: "Description", value: "removed" },
    ]);
  });

  it("says a delete removes the record", () => {
    const p = previewOf(op("DELETE", "/Customers/7"), "DELETE", "/Customers/7", undefined, "write");
    expect(p.changes).toEqual([]);
    expect(p.preview).toContain("It removes the record");
  });
});
