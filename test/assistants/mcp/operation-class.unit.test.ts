/**
 * The class of every catalog operation (`src/assistants/mcp/operation-class.ts`): the rule held to
 * all 313 rows, and the cases it exists for (a draft may create a sales order, never send its
 * invoice).
 */
import { describe, expect, it } from "vitest";
import { CATALOG } from "../../../shared/v2/catalog";
import {
  DRAFT_RESOURCES,
  operationClass,
  SENDING_ACTIONS,
  type OperationClass,
} from "../../../src/assistants/mcp/operation-class";
import { allows } from "../../../src/assistants/mcp/principal";

const classOf = (key: string): OperationClass => {
  const op = CATALOG.find((o) => o.key === key);
  if (!op) throw new Error(`not in the catalog: ${key}`);
  return operationClass(op);
};

describe("operation classes: every operation", () => {
  it("gives each of the catalog's 313 operations one class, by method first", () => {
    expect(CATALOG).toHaveLength(313);
    const counts: Record<OperationClass, number> = { read: 0, draft: 0, write: 0 };
    for (const op of CATALOG) {
      const cls = operationClass(op);
      counts[cls]++;
      if (op.method === "GET") expect(cls, op.key).toBe("read");
      if (op.method === "DELETE") expect(cls, op.key).toBe("write");
    }
    expect(counts.read).toBe(CATALOG.filter((o) => o.method === "GET").length);
    // As docs/mcp.md states them: a new operation changes these on purpose.
    expect(counts).toEqual({ read: 148, draft: 50, write: 115 });
  });

  it("classes draft exactly the non-sending creates and changes of the draft resources", () => {
    for (const op of CATALOG) {
      const segments = op.path.split("/").filter(Boolean);
      const draftResource = DRAFT_RESOURCES.has((segments[0] ?? "").toLowerCase());
      const sends = segments.some((s) => SENDING_ACTIONS.has(s.toLowerCase()));
      const expected =
        op.method === "GET"
          ? "read"
          : op.method !== "DELETE" && draftResource && !sends
            ? "draft"
            : "write";
      expect(operationClass(op), op.key).toBe(expected);
    }
  });
});

describe("operation classes: the cases the rule is for", () => {
  it("lets a draft create and change master data, sales orders and journal entry vouchers", () => {
    for (const key of [
      "POST /Customers",
      "PATCH /Customers/{id}",
      "POST /Products",
      "POST /ContactPersons/{contactId}",
      "POST /SalesOrders/Complete",
      "PATCH /SalesOrders/{id}",
      "POST /SalesOrders/{id}/Lines",
      "POST /JournalEntryVouchers/ManualJournals",
      "POST /JournalEntryVouchers/SupplierInvoices/{id}/VoucherLines",
    ])
      expect(classOf(key), key).toBe("draft");
  });

  it("keeps sending, posting, approving, deleting, bank accounts, the chart and payroll from a draft", () => {
    for (const key of [
      "POST /SalesOrders/{id}/createAndSendInvoice",
      "POST /JournalEntryVouchers/{id}/submitForApproval",
      "POST /VoucherApproval/{voucherId}",
      "POST /Vouchers/ManualJournals",
      "POST /Vouchers/BankJournals",
      "POST /Vouchers/Reverse/{id}",
      "POST /Imports/{id}/Post",
      "DELETE /Customers/{id}",
      "DELETE /SalesOrders/{id}/Lines/{lineId}",
      "POST /ClientBankAccounts",
      "POST /ContactBankAccounts/{contactId}",
      "POST /GeneralLedgerAccounts",
      "POST /Employees",
      "POST /SalaryLines",
      "POST /BankTransfers",
      "POST /Onboarding/Initiate",
    ])
      expect(classOf(key), key).toBe("write");
  });

  it("scopes are nested: read ⊂ draft ⊂ write", () => {
    expect([allows("read", "read"), allows("read", "draft"), allows("read", "write")]).toEqual([
      true,
      false,
      false,
    ]);
    expect([allows("draft", "read"), allows("draft", "draft"), allows("draft", "write")]).toEqual([
      true,
      true,
      false,
    ]);
    expect([allows("write", "draft"), allows("write", "write")]).toEqual([true, true]);
  });
});
