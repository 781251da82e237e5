/**
 * The MCP server's composite tools (`src/assistants/mcp/tools/composite-tools.ts`,
 * `order-run-tool.ts`) on books a shop order run wrote: a settled order's invoice with its payment,
 * a customer's open invoices and what it owes, and the run as the gateway knows it. Each answers
 * in the few upstream calls it promises.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { corpus } from "../fixtures/orders/shopify";
import { ADMIN, fresh, gw, json, stats } from "../helpers/gateway";
import { mcpClient, structuredOf, errorOf } from "../helpers/mcp";
import { shopTenant, waitFor, type ShopTenant } from "../helpers/orders";

type Money = { currency: string; amount: number; text: string };
type Invoice = { invoiceNo: number; balance: Money; total: Money | null; sentAt: string | null };
type InvoiceState = {
  invoice: Invoice;
  state: string;
  sent: boolean;
  payments: { amount: Money }[];
  paid: Money;
};

let t: ShopTenant;
let client: Client;
/** A settled order's run, and an invoiced one the tenant's mapping did not settle. */
let settled: Run;
let invoiced: Run;
let customerNo: number;
const order = corpus().find((c) => c.currency === "NOK");

type Run = Awaited<ReturnType<typeof waitFor>> & { customer: { number: number } | null };

/** Upstream calls `run` makes (the sandbox's counter). */
async function calls<T>(work: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const before = (await stats()).requests;
  const value = await work();
  return { value, calls: (await stats()).requests - before };
}

/** Runs `payload` as an order of `t` until it rests in `state`. */
async function ran(payload: Record<string, unknown>, state: "settled" | "invoiced"): Promise<Run> {
  expect((await t.send("shopify", payload)).status).toBe(202);
  const run = (await waitFor(t, "shopify", String(payload.id), [state, "failed"])) as Run;
  expect(run.state, JSON.stringify(run.error)).toBe(state);
  return run;
}

beforeAll(async () => {
  await fresh();
  if (!order) throw new Error("the Shopify corpus has no NOK order");
  t = await shopTenant();
  settled = await ran(order.payload, "settled");
  // The same buyer again, not settled this time: the customer's invoice stays open.
  const mapping = json({ settle: false }, "PUT", ADMIN);
  expect((await gw(`/admin/tenants/demo/${t.client}/order-mapping`, mapping)).status).toBe(200);
  invoiced = await ran({ ...order.payload, id: Number(order.payload.id) + 1 }, "invoiced");
  if (!settled.customer || settled.customer.number !== invoiced.customer?.number)
    throw new Error("the two orders should have one customer");
  customerNo = settled.customer.number;
  client = await mcpClient(t.gatewayKey);
});

describe("mcp composites: an order run's books", () => {
  it("invoice_with_payments: a settled order's invoice, sent and paid, with its payment, in 2 calls", async () => {
    const { value, calls: made } = await calls(() =>
      structuredOf<InvoiceState>(client, "invoice_with_payments", {
        invoiceNo: settled.invoiceNo,
      }),
    );
    expect(made).toBe(2);
    expect([value.state, value.sent, value.invoice.balance.amount]).toEqual(["paid", true, 0]);
    expect(value.payments).toHaveLength(1);
    expect(value.paid.amount).toBe(value.invoice.total?.amount);
    expect(value.paid.text).toMatch(/ kr$/);
  });

  it("invoice_with_payments: an unsettled invoice is unpaid, with no payment", async () => {
    const value = await structuredOf<InvoiceState>(client, "invoice_with_payments", {
      invoiceNo: invoiced.invoiceNo,
    });
    expect([value.state, value.payments, value.paid.amount]).toEqual(["unpaid", [], 0]);
    expect(value.invoice.balance.amount).toBe(value.invoice.total?.amount);
    expect(await errorOf(client, "invoice_with_payments", { invoiceNo: 99_999 })).toBe(
      "No outgoing invoice has number 99999.",
    );
  });

  it("customer_open_invoices: the customer's one open invoice and what it owes, in 2 calls", async () => {
    const { value, calls: made } = await calls(() =>
      structuredOf<{
        customer: { number: number };
        openInvoices: Invoice[];
        owed: Money[];
        complete: boolean;
      }>(client, "customer_open_invoices", { customerNo }),
    );
    expect(made).toBe(2);
    expect(value.customer.number).toBe(customerNo);
    // Only the unsettled order's invoice is open.
    expect(value.openInvoices.map((i) => i.invoiceNo)).toEqual([invoiced.invoiceNo]);
    const [open] = value.openInvoices;
    expect(open?.balance.amount).toBeGreaterThan(0);
    expect(value.owed).toEqual([open?.balance]);
    expect(value.complete).toBe(true);
    expect(await errorOf(client, "customer_open_invoices", { customerNo: 99_999 })).toBe(
      "No customer has number 99999.",
    );
  });

  it("order_run_status: the run as the gateway knows it with its invoice (1 call), and the failed runs (no call)", async () => {
    const one = await calls(() =>
      structuredOf<{ runs: { state: string; invoiceNo: number }[]; invoice: Invoice | null }>(
        client,
        "order_run_status",
        { source: "shopify", orderId: String(order?.payload.id) },
      ),
    );
    expect(one.calls).toBe(1);
    expect(one.value.runs.map((r) => [r.state, r.invoiceNo])).toEqual([
      ["settled", settled.invoiceNo],
    ]);
    expect(one.value.invoice?.balance.amount).toBe(0);
    const failed = await calls(() =>
      structuredOf<{ runs: unknown[] }>(client, "order_run_status", { state: "failed" }),
    );
    expect([failed.calls, failed.value.runs]).toEqual([0, []]);
    expect(await errorOf(client, "order_run_status", { source: "shopify" })).toBe(
      "Give both source and orderId for one order, or neither for a list.",
    );
  });
});
