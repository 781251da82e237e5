/**
 * One invoice, one key (docs/events.md, "The event"): an order run's `outgoing_invoice.created`,
 * `.sent` and `.paid` carry the same `InvoiceNo` and `SalesOrderId`, never an `Id` of either
 * record; its `.paid` is made from the settlement, with no read; and the watcher's later look at
 * the same invoice (its balance and sent rows) lands on the same keys, so it records nothing.
 */
import { describe, expect, it, vi } from "vitest";
import { EVENT_TYPES } from "../../src/events/types";
import { addEndpoint, captureQueue, feed } from "../helpers/events";
import { ADMIN, gw } from "../helpers/gateway";
import { settledNokOrder, shopTenant } from "../helpers/orders";
import { cycle } from "../helpers/watcher";

const INVOICE_TYPES = EVENT_TYPES.filter((type) => type.startsWith("outgoing_invoice."));

describe("events: one invoice, one key", () => {
  it("an order's created, sent and paid share InvoiceNo and SalesOrderId; the watcher's later look announces nothing more", async () => {
    captureQueue();
    const t = await shopTenant();
    // Invoices and the runs' outcomes: the watcher polls the invoices only.
    await addEndpoint(t.gatewayKey, {
      url: `https://hooks.${t.client}.example.com/in`,
      types: [...INVOICE_TYPES, "order.invoiced", "order.settled"],
    });
    const { orderId, run } = await settledNokOrder(t);
    // The settle step's call is the voucher alone (its ids were looked up in the same step).
    const settle = run.steps.find((s) => s.name === "settle")?.result;
    expect(settle?.upstreamCalls).toBe(3);
    await vi.waitFor(
      async () => expect((await feed(t.gatewayKey)).map((e) => e.type)).toContain("order.settled"),
      { timeout: 20_000, interval: 100 },
    );
    const announced = await feed(t.gatewayKey);
    const invoiceEvents = announced.filter((e) => e.type.startsWith("outgoing_invoice."));
    expect(invoiceEvents.map((e) => e.type).sort()).toEqual(
      ["outgoing_invoice.created", "outgoing_invoice.paid", "outgoing_invoice.sent"].sort(),
    );
    // One key per invoice: the number, and the sales order's id by its own name, in every one.
    for (const e of invoiceEvents) {
      expect(e.data, e.type).toMatchObject({
        InvoiceNo: run.invoiceNo,
        SalesOrderId: run.salesOrderId,
      });
      expect(e.data, e.type).not.toHaveProperty("Id");
    }
    expect(run.salesOrderId).toEqual(expect.any(String));
    const paid = invoiceEvents.find((e) => e.type === "outgoing_invoice.paid");
    expect(paid?.data).toMatchObject({ Balance: 0, TotalPostedAmount: Number(run.total) });
    expect(announced.find((e) => e.type === "order.settled")?.data).toMatchObject({
      orderId,
      invoiceNo: run.invoiceNo,
      state: "settled",
    });

    // The watcher reads the invoice's rows (answered 200, not 204: they changed since its start)
    // and derives the same keys: nothing new is recorded.
    const view = await cycle(t);
    expect(view.polls).toEqual(["invoice-balances", "invoices-sent"]);
    expect(view.lastCycle).toMatchObject({ calls: 2, changes: 0, outcome: "ok" });
    const log = await gw(`/admin/tenants/demo/${t.client}/requests?limit=100&caller=watcher`, {
      headers: ADMIN,
    });
    const rows = (
      (await log.json()) as {
        requests: { path: string; status: number; caller: { kind: string } }[];
      }
    ).requests;
    expect(rows.filter((r) => r.caller.kind === "watcher").map((r) => [r.path, r.status])).toEqual([
      ["/OutgoingInvoices", 200],
      ["/OutgoingInvoices", 200],
    ]);
    // No read made for the events: the run's steps and the watcher's polls are all the calls.
    expect(rows.filter((r) => r.caller.kind === "events")).toEqual([]);
    expect(await feed(t.gatewayKey)).toEqual(announced);
  });
});
