/**
 * Order to invoice against the sandbox: signed shop webhooks become one customer, one sales order
 * and one sent invoice whose total is what the buyer paid, exactly once; refunds become credit
 * notes; cancellations stop the run; and a failure midway is finished by a retry, not duplicated.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  corpus as shopifyCorpus,
  shopifyCancelled,
  shopifyRefund,
} from "../../fixtures/orders/shopify";
import { corpus as stripeCorpus, stripeChargeRefunded } from "../../fixtures/orders/stripe";
import { control } from "../../helpers/gateway";
import { shopTenant, waitFor, type ShopTenant } from "../../helpers/orders";

type Json = Record<string, unknown>;
const workflow = env.ORDER_TO_INVOICE;
const cases = shopifyCorpus();
/** A NOK order of several lines, one of them taxed at 15 %, with shipping. */
const order = cases.find(
  (c) =>
    c.currency === "NOK" &&
    (c.payload.line_items as unknown[]).length >= 2 &&
    c.byVat["15"] &&
    (c.payload.shipping_lines as unknown[]).length > 0,
);
if (!order) throw new Error("the Shopify corpus has no NOK order with a 15 % line and shipping");
const orderId = String(order.payload.id);
const paidDecimal = (minor: number) => (minor / 100).toFixed(2);

async function invoices(t: ShopTenant) {
  return t.rows("/OutgoingInvoices");
}

describe("order to invoice", () => {
  it("one paid order: one customer, one sales order, one sent invoice whose total is what was paid, settled", async () => {
    const t = await shopTenant();
    const res = await t.send("shopify", order.payload);
    expect(res.status, await res.clone().text()).toBe(202);
    expect(await res.json()).toMatchObject({
      intake: "started",
      run: { orderId, state: "received" },
    });
    const run = await waitFor(t, "shopify", orderId, ["settled", "failed"]);
    expect(run.state, JSON.stringify(run.error)).toBe("settled");
    expect(run.total).toBe(paidDecimal(order.expectedTotal));
    const all = await invoices(t);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      InvoiceNo: run.invoiceNo,
      TotalAmount: order.expectedTotal / 100,
      Balance: 0,
      VoucherType: "OutgoingInvoice",
    });
    expect(await t.rows("/Customers")).toHaveLength(1);
    expect(await t.rows("/SalesOrders")).toHaveLength(0);
    expect(run.steps.map((s) => s.name)).toEqual([
      "customer",
      "products",
      "sales order",
      "send invoice",
      "delivery 1",
      "settle",
    ]);
    // Another tenant's key finds no such order; a forged key is refused.
    const other = await shopTenant();
    expect((await other.orders(`/shopify/${orderId}`)).status).toBe(404);
    expect(((await (await other.orders("")).json()) as { orders: unknown[] }).orders).toEqual([]);
    const forged = `${t.gatewayKey.slice(0, -4)}AAAA`;
    expect(
      (await t.orders(`/shopify/${orderId}`, { headers: { authorization: `Bearer ${forged}` } }))
        .status,
    ).toBe(401);
  });

  it("the same webhook delivered 20 times at once: one run, one customer, one invoice; every delivery answered 2xx", async () => {
    const t = await shopTenant();
    const eventId = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.send("shopify", order.payload, { eventId })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    const run = await waitFor(t, "shopify", orderId, ["settled", "failed"]);
    // The 19 others carry the same event id: recognized as that event again, they change nothing.
    expect(run).toMatchObject({ state: "settled", deliveries: 1 });
    expect(await invoices(t)).toHaveLength(1);
    expect(await t.rows("/Customers")).toHaveLength(1);
    // A later duplicate with a new event id (orders/paid sent again) is the same order: still one
    // invoice.
    const again = await t.send("shopify", order.payload);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      intake: "duplicate",
      run: { state: "settled", invoiceNo: run.invoiceNo },
    });
    expect(await invoices(t)).toHaveLength(1);
  });

  it("a returning customer and known products are not created again", async () => {
    const t = await shopTenant();
    await t.send("shopify", order.payload);
    const first = await waitFor(t, "shopify", orderId, ["settled", "failed"]);
    expect(first.customer?.created).toBe(true);
    const second = { ...order.payload, id: Number(orderId) + 1, name: "#second" };
    expect((await t.send("shopify", second)).status).toBe(202);
    const run = await waitFor(t, "shopify", String(second.id), ["settled", "failed"]);
    expect(run.customer).toMatchObject({ id: first.customer?.id, created: false });
    expect(run.steps.find((s) => s.name === "products")?.result.created).toEqual([]);
    expect(await t.rows("/Customers")).toHaveLength(1);
    expect(await invoices(t)).toHaveLength(2);
  });

  it("a refund after invoicing: a credit note for exactly the refunded line, sent and settled", async () => {
    const t = await shopTenant();
    await t.send("shopify", order.payload);
    const run = await waitFor(t, "shopify", orderId, ["settled", "failed"]);
    const [line] = order.payload.line_items as Json[];
    const refund = shopifyRefund(order.payload, [{ lineId: line?.id as number, quantity: 1 }]);
    const back = Number((refund.transactions as Json[])[0]?.amount);
    expect((await t.send("shopify", refund, { topic: "refunds/create" })).status).toBe(202);
    const credited = await waitFor(
      t,
      "shopify",
      orderId,
      ["credited"],
      (r) => r.refunds[0]?.state === "credited",
    );
    expect(credited.refunds).toEqual([
      expect.objectContaining({
        id: String(refund.id),
        state: "credited",
        total: back.toFixed(2),
        creditNoteNo: expect.any(Number),
      }),
    ]);
    const notes = (await invoices(t)).filter((i) => i.VoucherType === "OutgoingCreditNote");
    expect(notes).toEqual([
      expect.objectContaining({ InvoiceNo: credited.refunds[0]?.creditNoteNo, TotalAmount: -back }),
    ]);
    // The refund went back to the buyer: the customer's ledger is even again.
    const [invoice] = await t.rows(`/OutgoingInvoices?invoiceNos=${String(run.invoiceNo)}`);
    expect(invoice?.Balance).toBe(0);
    expect((await t.send("shopify", refund, { topic: "refunds/create" })).status).toBe(200);
  });

  it("a partial Stripe refund (an amount, no lines): a credit note for exactly that amount, shared over the invoiced lines", async () => {
    const t = await shopTenant();
    const paid = stripeCorpus().find(
      (c) => c.currency === "NOK" && Object.keys(c.byVat).length >= 2,
    );
    if (!paid) throw new Error("the Stripe corpus has no NOK order with two VAT classes");
    const invoiceId = String((paid.payload.data as { object: { id: string } }).object.id);
    await t.send("stripe", paid.payload);
    await waitFor(t, "stripe", invoiceId, ["settled"]);
    const amount = Math.round(paid.expectedTotal / 3) + 1;
    expect((await t.send("stripe", stripeChargeRefunded(paid.payload, amount))).status).toBe(202);
    const run = await waitFor(
      t,
      "stripe",
      invoiceId,
      ["credited"],
      (r) => r.refunds[0]?.state === "credited",
    );
    const notes = (await invoices(t)).filter((i) => i.VoucherType === "OutgoingCreditNote");
    expect(notes).toEqual([
      expect.objectContaining({
        InvoiceNo: run.refunds[0]?.creditNoteNo,
        TotalAmount: -amount / 100,
        Balance: 0,
      }),
    ]);
  });

  it("a cancellation before the order is invoiced stops it: no sales order, no invoice", async () => {
    const t = await shopTenant();
    await using introspector = await introspectWorkflow(workflow);
    // Out of order, as shops send them: the cancellation arrives before the paid order.
    expect(
      (await t.send("shopify", shopifyCancelled(order.payload), { topic: "orders/cancelled" }))
        .status,
    ).toBe(202);
    const late = await t.send("shopify", order.payload);
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({ run: { state: "cancelled" } });
    // No run was started, so nothing can write later: the checks below need no wait.
    expect(await introspector.get()).toHaveLength(0);
    const run = await waitFor(t, "shopify", orderId, ["cancelled"]);
    expect(run.invoiceNo).toBeNull();
    expect(await t.rows("/SalesOrders")).toHaveLength(0);
    expect(await invoices(t)).toHaveLength(0);
  });
});

describe("order to invoice, when things fail midway", () => {
  it("an upstream failure when sending: the step is retried and finishes the same order", async () => {
    const t = await shopTenant();
    await using introspector = await introspectWorkflow(workflow);
    await introspector.modifyAll(async (m) => m.disableRetryDelays());
    await control("PUT", "/settings", {
      faults: [
        {
          kind: "error",
          status: 503,
          target: "api",
          path: "/SalesOrders/*/createAndSendInvoice",
          count: 2,
        },
      ],
    });
    try {
      await t.send("shopify", order.payload);
      const run = await waitFor(t, "shopify", orderId, ["settled", "failed"]);
      expect(run.state, JSON.stringify(run.error)).toBe("settled");
      expect(await invoices(t)).toHaveLength(1);
    } finally {
      await control("PUT", "/settings", { faults: [] });
    }
  });

  it("a cancellation while the run waits to send: the draft sales order is deleted and nothing is invoiced", async () => {
    const t = await shopTenant();
    // Sending fails until the cancellation is in: the run is held between its sales order and the
    // send.
    await control("PUT", "/settings", {
      faults: [
        { kind: "error", status: 503, target: "api", path: "/SalesOrders/*/createAndSendInvoice" },
      ],
    });
    try {
      await t.send("shopify", order.payload);
      const held = await waitFor(
        t,
        "shopify",
        orderId,
        ["running"],
        (r) => r.salesOrderId !== null,
      );
      expect(
        (await t.send("shopify", shopifyCancelled(order.payload), { topic: "orders/cancelled" }))
          .status,
      ).toBe(202);
      // The send stays refused: an attempt that checked for a cancellation just before it arrived
      // must not get its send through, so the run can only end by seeing the cancellation.
      const run = await waitFor(t, "shopify", orderId, ["cancelled", "failed", "settled"]);
      expect(run).toMatchObject({
        state: "cancelled",
        salesOrderId: held.salesOrderId,
        invoiceNo: null,
      });
      expect((await t.v2(`/SalesOrders/${String(held.salesOrderId)}`)).status).toBe(404);
      expect(await invoices(t)).toHaveLength(0);
    } finally {
      await control("PUT", "/settings", { faults: [] });
    }
  });

  it("a crash between creating the sales order and sending it: the retry sends that same order", async () => {
    const t = await shopTenant();
    {
      await using introspector = await introspectWorkflow(workflow);
      await introspector.modifyAll(async (m) => {
        await m.disableRetryDelays();
        await m.mockStepError({ name: "send invoice" }, new Error("worker crashed"));
      });
      await t.send("shopify", order.payload);
      const failed = await waitFor(t, "shopify", orderId, ["failed"]);
      expect(failed.error).toEqual({
        step: "send invoice",
        detail: expect.stringContaining("worker crashed"),
      });
      expect(failed.salesOrderId).toEqual(expect.any(String));
      const listed = (await (await t.orders("?state=failed")).json()) as {
        orders: { orderId: string }[];
      };
      expect(listed.orders.map((o) => o.orderId)).toEqual([orderId]);
      expect(await invoices(t)).toHaveLength(0);
    }
    const before = (await (await t.orders(`/shopify/${orderId}`)).json()) as {
      salesOrderId: string;
    };
    const retry = await t.orders(`/shopify/${orderId}/retry`, { method: "POST" });
    expect(retry.status, await retry.clone().text()).toBe(202);
    const run = await waitFor(t, "shopify", orderId, ["settled", "failed"], (r) => r.attempt === 2);
    expect(run).toMatchObject({
      state: "settled",
      attempt: 2,
      salesOrderId: before.salesOrderId,
      error: null,
    });
    expect(await invoices(t)).toHaveLength(1);
    expect(await t.rows("/Customers")).toHaveLength(1);
    expect((await t.orders(`/shopify/${orderId}/retry`, { method: "POST" })).status).toBe(409);
  });
});
