/**
 * The sales order step against a fake API that models time: an earlier attempt's order (or the
 * invoice it became) is found by its ExternalImportReference however long ago it was made; the
 * API's total is corrected only by rounding; a cancelled order's draft is reported gone only when
 * the API deleted it.
 */
import { describe, expect, it } from "vitest";
import { resolveMapping } from "../../../src/ledger/mapping";
import { RunError } from "../../../src/ledger/run-api";
import { createSalesOrder, deleteDraft, withdrawOrder } from "../../../src/orders/run/sales-order";
import type { LinePlan } from "../../../src/orders/invoice-lines";
import { DUPLICATE, fakeApi, rows, type FakeAnswer } from "./fake-api";

const REF = "lg:shp:o:5600000007919";
const DAYS_AGO = new Date(Date.now() - 3 * 86_400_000).toISOString();
const plan: LinePlan = {
  lines: [
    { productCode: "VARE-25", description: "Genser", quantity: 1, unitPrice: 80_000, vat: "25" },
  ],
  total: 100_000,
  rounding: 0,
};
// `since` is what the step once searched from (the run's start); kept so the test reads the same
// against older code.
const header = {
  customerId: 7,
  reference: REF,
  currency: "NOK",
  date: "2026-03-01",
  customerReference: "#1001",
  since: new Date().toISOString(),
};
const order = {
  Id: "0b9c1f40-4f49-4a3e-9a43-2f5d2a1b3c4d",
  SalesOrderNo: 12,
  TotalAmount: 1000,
  ExternalImportReference: REF,
  LastChangedDateTimeOffset: DAYS_AGO,
};
const invoice = {
  Id: "5a1c2b3d-4f49-4a3e-9a43-2f5d2a1b3c4d",
  InvoiceNo: 10_001,
  ExternalImportReference: REF,
  SentDateTimeOffset: DAYS_AGO,
};

/**
 * The API's lists of `GET /SalesOrders` and `/OutgoingInvoices`, with the filters the step may use.
 */
function list(
  all: Record<string, unknown>[],
  changed: "LastChangedDateTimeOffset" | "SentDateTimeOffset",
  q: URLSearchParams,
): FakeAnswer {
  const refs = q.get("externalImportReferences")?.split(",");
  const after =
    q.get("lastChangedDateTimeOffsetGreaterThan") ?? q.get("sentDateTimeOffsetGreaterThan");
  return rows(
    all.filter(
      (r) =>
        (!refs || refs.includes(String(r.ExternalImportReference))) &&
        (!after || String(r[changed]) > after),
    ),
  );
}

/**
 * Books holding `orders` and `invoices`; posting the run's reference again is refused as a
 * duplicate.
 */
function books(orders: Record<string, unknown>[], invoices: Record<string, unknown>[]) {
  return fakeApi((method, path, q) => {
    if (method === "POST" && path === "/SalesOrders/Complete") return DUPLICATE;
    if (method === "GET" && path === "/SalesOrders")
      return list(orders, "LastChangedDateTimeOffset", q);
    if (method === "GET" && path === "/OutgoingInvoices")
      return list(invoices, "SentDateTimeOffset", q);
    return { status: 500, body: { detail: `unexpected ${method} ${path}` } };
  });
}

describe("sales order step: finding what an earlier attempt made", () => {
  it("finds the draft an attempt made three days ago by its reference", async () => {
    const api = books([order], []);
    expect(await createSalesOrder(api, header, plan, resolveMapping())).toEqual({
      kind: "order",
      id: order.Id,
      number: 12,
      total: 100_000,
      roundingAdded: 0,
    });
    expect(api.log[1]).toBe(`GET /SalesOrders?externalImportReferences=${encodeURIComponent(REF)}`);
  });

  it("finds the invoice the order became three days ago", async () => {
    const api = books([], [invoice]);
    expect(await createSalesOrder(api, header, plan, resolveMapping())).toEqual({
      kind: "invoiced",
      invoiceNo: 10_001,
      invoiceId: invoice.Id,
    });
  });

  it("does not take another order a filter let through", async () => {
    const other = { ExternalImportReference: "lg:shp:o:other" };
    const api = fakeApi((method, path) =>
      method === "POST"
        ? DUPLICATE
        : rows([path === "/SalesOrders" ? { ...order, ...other } : { ...invoice, ...other }]),
    );
    await expect(createSalesOrder(api, header, plan, resolveMapping())).rejects.toThrow(
      /is in use, but no order or invoice of this integration carries it/,
    );
  });

  it("adds a rounding line for an øre the API rounded otherwise, and fails (adding nothing) past the bound", async () => {
    const created = (total: number) =>
      fakeApi((method, path) =>
        path === "/SalesOrders/Complete"
          ? { status: 201, body: { ...order, TotalAmount: total } }
          : method === "GET"
            ? rows([{ Code: "AVRUNDING" }])
            : { status: 201, body: {} },
      );
    const close = created(999.98);
    expect(await createSalesOrder(close, header, plan, resolveMapping())).toMatchObject({
      total: 100_000,
      roundingAdded: 2,
    });
    const far = created(800);
    await expect(createSalesOrder(far, header, plan, resolveMapping())).rejects.toThrow(
      /more than rounding, so no rounding line was added/,
    );
    expect(far.log).toEqual(["POST /SalesOrders/Complete"]);
  });
});

describe("sales order step: withdrawing a cancelled order's draft", () => {
  const deleting = (status: number) =>
    fakeApi(() => ({
      status,
      body:
        status >= 400
          ? { detail: "Sales order is in use and cannot be deleted: it is being invoiced." }
          : undefined,
    }));

  it("counts a draft as deleted only when the API says so (200, 204, or 404: already gone)", async () => {
    for (const status of [200, 204, 404])
      await expect(deleteDraft(deleting(status), order.Id)).resolves.toBeUndefined();
    const refused = deleteDraft(deleting(409), order.Id);
    await expect(refused).rejects.toThrow(RunError);
    await expect(refused).rejects.toThrow(
      `The order was cancelled, but deleting its draft sales order ${order.Id} answered 409`,
    );
  });

  it("finds an earlier attempt's draft by reference and deletes it; an invoice is answered, not deleted", async () => {
    const api = fakeApi((method, path, q) =>
      method === "DELETE"
        ? { status: 200 }
        : path === "/SalesOrders"
          ? list([order], "LastChangedDateTimeOffset", q)
          : rows([]),
    );
    expect(await withdrawOrder(api, REF)).toBeNull();
    expect(api.log.at(-1)).toBe(`DELETE /SalesOrders/${order.Id}`);
    const sent = books([], [invoice]);
    expect(await withdrawOrder(sent, REF)).toEqual({
      kind: "invoiced",
      invoiceNo: 10_001,
      invoiceId: invoice.Id,
    });
    expect(sent.log.some((l) => l.startsWith("DELETE"))).toBe(false);
    expect(await withdrawOrder(books([], []), REF)).toBeNull();
  });
});
