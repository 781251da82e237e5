/**
 * An order's run books exactly what the shop's lines say, through the gateway and the sandbox: a
 * total the lines do not explain (a tip) fails the run before anything is booked; a refund that
 * arrives while its order has failed is credited once the order's retry invoices it; a cancellation
 * of a failed order reads "cancelled" only once its draft sales order is really gone, and one
 * invoiced before it keeps its invoice and is settled by the next attempt.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpus, shopifyCancelled, shopifyRefund } from "../../fixtures/orders/shopify";
import { shopTenant, waitFor, type ShopTenant } from "../../helpers/orders";

type Json = Record<string, unknown>;
const workflow = env.ORDER_TO_INVOICE;
const order = corpus().find(
  (c) => c.currency === "NOK" && (c.payload.line_items as unknown[]).length >= 2,
);
if (!order) throw new Error("the Shopify corpus has no NOK order of two lines");
const orderId = String(order.payload.id);

/**
 * Runs the order's first attempt with `step` failing as if the Worker crashed there; answers the
 * failed run.
 */
async function failAt(t: ShopTenant, step: string) {
  await using introspector = await introspectWorkflow(workflow);
  await introspector.modifyAll(async (m) => {
    await m.disableRetryDelays();
    await m.mockStepError({ name: step }, new Error("worker crashed"));
  });
  expect((await t.send("shopify", order?.payload)).status).toBe(202);
  // Awaited here: the introspector must outlive the run it modifies.
  return await waitFor(t, "shopify", orderId, ["failed"]);
}

describe("order integrity", () => {
  it("a total the lines do not explain (a 50.00 tip) fails the run before its first call: no customer, no sales order, no invoice", async () => {
    const t = await shopTenant();
    const total = Number(order.payload.total_price) + 50;
    const tipped = {
      ...order.payload,
      total_tip_received: "50.00",
      total_price: total.toFixed(2),
      current_total_price: total.toFixed(2),
    };
    expect((await t.send("shopify", tipped)).status).toBe(202);
    const run = await waitFor(t, "shopify", orderId, ["failed", "settled"]);
    expect(run.state).toBe("failed");
    expect(run.error).toEqual({
      step: "plan",
      detail: expect.stringContaining("is 50.00 more than the lines add up to"),
    });
    expect(run.steps).toEqual([]);
    expect(await t.rows("/Customers")).toHaveLength(0);
    expect(await t.rows("/SalesOrders")).toHaveLength(0);
    expect(await t.rows("/OutgoingInvoices")).toHaveLength(0);
  });

  it("a refund that arrives while its order has failed waits, and is credited once the order's retry invoices it", async () => {
    const t = await shopTenant();
    await failAt(t, "sales order");
    const line = (order.payload.line_items as Json[])[0];
    const refund = shopifyRefund(order.payload, [{ lineId: line?.id as number, quantity: 1 }]);
    expect((await t.send("shopify", refund, { topic: "refunds/create" })).status).toBe(202);
    const held = await waitFor(t, "shopify", orderId, ["failed"]);
    expect(held.refunds).toEqual([
      expect.objectContaining({ id: String(refund.id), state: "received" }),
    ]);

    expect((await t.orders(`/shopify/${orderId}/retry`, { method: "POST" })).status).toBe(202);
    await waitFor(
      t,
      "shopify",
      orderId,
      ["settled", "credited", "failed"],
      (r) => r.attempt === 2 && r.invoiceNo !== null,
    );
    // The report of the new invoice starts the refund's run, which credits it.
    const run = await waitFor(
      t,
      "shopify",
      orderId,
      ["credited"],
      (r) => r.refunds[0]?.state === "credited",
    );
    const back = Number((refund.transactions as Json[])[0]?.amount);
    const notes = (await t.rows("/OutgoingInvoices")).filter(
      (i) => i.VoucherType === "OutgoingCreditNote",
    );
    expect(notes).toEqual([
      expect.objectContaining({ InvoiceNo: run.refunds[0]?.creditNoteNo, TotalAmount: -back }),
    ]);
  });

  it("a cancellation of a failed order that left a draft sales order: the draft is deleted before the order reads cancelled", async () => {
    const t = await shopTenant();
    const failed = await failAt(t, "send invoice");
    expect(failed.salesOrderId).toEqual(expect.any(String));
    expect((await t.v2(`/SalesOrders/${String(failed.salesOrderId)}`)).status).toBe(200);
    expect(
      (await t.send("shopify", shopifyCancelled(order.payload), { topic: "orders/cancelled" }))
        .status,
    ).toBe(202);
    const run = await waitFor(t, "shopify", orderId, ["cancelled"], (r) => r.attempt === 2);
    expect(run.steps.map((s) => s.name)).toContain("withdraw");
    expect((await t.v2(`/SalesOrders/${String(failed.salesOrderId)}`)).status).toBe(404);
    expect(await t.rows("/SalesOrders")).toHaveLength(0);
    expect(await t.rows("/OutgoingInvoices")).toHaveLength(0);
  });

  it("a cancellation of an order invoiced before it: the next attempt keeps the one invoice and settles it, never stopping at invoiced", async () => {
    const t = await shopTenant();
    const failed = await failAt(t, "settle");
    expect(failed.invoiceNo).toEqual(expect.any(Number));
    expect(
      (await t.send("shopify", shopifyCancelled(order.payload), { topic: "orders/cancelled" }))
        .status,
    ).toBe(202);
    // An invoiced order's cancellation starts nothing: the invoice stands, the operator retries.
    await waitFor(t, "shopify", orderId, ["failed"], (r) => r.cancelledAt !== null);
    expect((await t.orders(`/shopify/${orderId}/retry`, { method: "POST" })).status).toBe(202);
    const run = await waitFor(t, "shopify", orderId, ["settled", "failed"], (r) => r.attempt === 2);
    expect(run.state, JSON.stringify(run.error)).toBe("settled");
    expect(run.steps.map((s) => s.name)).toEqual(expect.arrayContaining(["withdraw", "settle"]));
    expect(run.invoiceNo).toBe(failed.invoiceNo);
    const invoices = await t.rows("/OutgoingInvoices");
    expect(invoices.map((i) => [i.InvoiceNo, i.Balance])).toEqual([[failed.invoiceNo, 0]]);
  });
});
