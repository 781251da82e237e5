/**
 * Which `/v2` writes are announced and how (`src/events/write-events.ts`), the events' data
 * (`data.ts`) and their de-duplication keys (`keys.ts`), which the watcher of issue 30 derives the
 * same way.
 */
import { describe, expect, it } from "vitest";
import { eventData, MAX_DATA_BYTES } from "../../src/events/data";
import { balanceDrafts, sentDrafts, settledDrafts } from "../../src/events/invoice-events";
import { recordKey } from "../../src/events/keys";
import { announcementOf, MAX_INVOICES_PER_READ } from "../../src/events/write-events";

describe("announced writes", () => {
  it("announces customers and products from their answer, naming the fields the write set", () => {
    expect(
      announcementOf("POST", "/Customers", 201, { Name: "A", EmailAddress: "a@b.no" }),
    ).toEqual({
      kind: "record",
      type: "customer.created",
      changed: ["Name", "EmailAddress"],
    });
    expect(
      announcementOf("PATCH", "/Products/7", 200, [
        { op: "replace", path: "/Name", value: "B" },
        { op: "replace", path: "/SalesPrice", value: 1 },
      ]),
    ).toEqual({ kind: "record", type: "product.updated", changed: ["Name", "SalesPrice"] });
  });

  it("follows a payment with one read of the invoices its lines name, at most a cap", () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({ InvoiceNo: String(10_001 + (i % 55)) }));
    const a = announcementOf("POST", "/Vouchers/BankJournals", 201, { VoucherLines: lines });
    expect(a?.kind === "invoices" && a.invoiceNos).toHaveLength(MAX_INVOICES_PER_READ);
    expect(
      announcementOf("POST", "/Vouchers/BankJournals", 201, { VoucherLines: [{}] }),
    ).toBeNull();
  });

  it("reads a sent invoice's state; announces no failed write and no other operation", () => {
    expect(announcementOf("POST", "/SalesOrders/so-1/createAndSendInvoice", 202, {})).toEqual({
      kind: "sent",
      salesOrderId: "so-1",
    });
    expect(announcementOf("POST", "/Customers", 400, { Name: "A" })).toBeNull();
    expect(announcementOf("DELETE", "/Customers/1", 200, null)).toBeNull();
    expect(announcementOf("POST", "/Departments", 201, { Name: "A" })).toBeNull();
    expect(announcementOf("POST", "/NotInTheCatalog", 201, {})).toBeNull();
  });
});

describe("event data and keys", () => {
  it("sends a record under 20 kB whole, a larger one as its id and the changed fields", () => {
    const small = { Id: 1, Name: "A" };
    expect(eventData(small, ["Name"])).toBe(small);
    const big = { Id: 2, Name: "B", Notes: "x".repeat(MAX_DATA_BYTES) };
    expect(eventData(big, ["Name"])).toEqual({ Id: 2, Name: "B", changedFields: ["Name"] });
    expect(eventData(big, ["Notes"])).toEqual({ Id: 2, changedFields: ["Notes"] });
  });

  it("keys a creation by id, an update by its LastChangedDateTimeOffset", () => {
    const r = { Id: 7, LastChangedDateTimeOffset: "2026-11-26T10:00:00Z" };
    expect(recordKey("customer.created", r, "req-1")).toBe("customer.created|7");
    expect(recordKey("customer.updated", r, "req-1")).toBe(
      "customer.updated|7|2026-11-26T10:00:00Z",
    );
    expect(recordKey("customer.updated", { Id: 7 }, "req-1")).toBe("customer.updated|7|req-1");
  });

  it("announces an invoice's balance as paid at zero (once an invoice), as changed otherwise (at its stamp), keyed by its number", () => {
    const paid = {
      Id: "inv-1",
      InvoiceNo: 10_001,
      Balance: 0,
      TotalPostedAmount: 125,
      BalanceLastChangedDateTimeOffset: "T1",
    };
    const part = { InvoiceNo: 10_002, Balance: 25, TotalPostedAmount: 125 };
    expect(balanceDrafts([paid, part], 5)).toEqual([
      {
        type: "outgoing_invoice.paid",
        at: 5,
        // The row, its `Id` (the invoice voucher's) named `InvoiceId`.
        data: {
          InvoiceNo: 10_001,
          SalesOrderId: null,
          InvoiceId: "inv-1",
          Balance: 0,
          TotalPostedAmount: 125,
          BalanceLastChangedDateTimeOffset: "T1",
        },
        key: "outgoing_invoice.paid|10001",
      },
      {
        type: "outgoing_invoice.balance_changed",
        at: 5,
        data: {
          InvoiceNo: 10_002,
          SalesOrderId: null,
          InvoiceId: null,
          Balance: 25,
          TotalPostedAmount: 125,
        },
        key: "outgoing_invoice.balance_changed|10002|balance=25",
      },
    ]);
    // A row without a number is no invoice event: the number is the key.
    expect(balanceDrafts([{ Id: "x", Balance: 0, TotalPostedAmount: 1 }], 5)).toEqual([]);
    const sent = {
      InvoiceNo: 10_001,
      SalesOrderId: "so-1",
      InvoiceId: null,
      SentDateTimeOffset: "T0",
      InvoiceDeliveryType: "Print",
    };
    const drafts = sentDrafts(sent, 5);
    expect(drafts.map((d) => d.key)).toEqual([
      "outgoing_invoice.created|10001",
      "outgoing_invoice.sent|10001|T0",
    ]);
    expect(drafts.map((d) => d.data)).toEqual([sent, sent]);
  });

  it("builds an order run's outgoing_invoice.paid from its settlement, under the key of the balance row the watcher reads later", () => {
    const ids = { InvoiceNo: 10_001, SalesOrderId: "so-1", InvoiceId: null };
    const [paid, ...rest] = settledDrafts({ ...ids, total: 12_550, currency: "NOK" }, 5);
    expect(rest).toEqual([]);
    expect(paid).toEqual({
      type: "outgoing_invoice.paid",
      at: 5,
      data: { ...ids, Balance: 0, TotalPostedAmount: 125.5, CurrencyCode: "NOK" },
      key: "outgoing_invoice.paid|10001",
    });
    // The same invoice as `GET /OutgoingInvoices` lists it after the settlement: one key.
    const row = {
      Id: "inv-1",
      InvoiceNo: 10_001,
      Balance: 0,
      TotalPostedAmount: 125.5,
      BalanceLastChangedDateTimeOffset: "2026-11-28T10:00:00.123Z",
    };
    expect(balanceDrafts([row], 9).map((d) => d.key)).toEqual([paid?.key]);
    // A credit note settled is paid too (its total negative); nothing settled, nothing paid.
    expect(
      settledDrafts({ ...ids, total: -500, currency: "NOK" }, 5).map(
        (d) => d.data.TotalPostedAmount,
      ),
    ).toEqual([-5]);
    expect(settledDrafts({ ...ids, total: 0, currency: "NOK" }, 5)).toEqual([]);
  });

  it("names an invoice by its ids in the thin data of a row over 20 kB", () => {
    const big = {
      Id: "inv-9",
      InvoiceNo: 10_009,
      Balance: 10,
      TotalPostedAmount: 20,
      Notes: "x".repeat(MAX_DATA_BYTES),
    };
    expect(balanceDrafts([big], 5)[0]?.data).toEqual({
      InvoiceNo: 10_009,
      SalesOrderId: null,
      InvoiceId: "inv-9",
      Balance: 10,
      changedFields: ["Balance"],
    });
  });
});
