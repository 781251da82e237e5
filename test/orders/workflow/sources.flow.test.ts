/**
 * What the shops send, read right, through the gateway and the sandbox: a Stripe invoice in the
 * API shape since 2025-03-31 is booked with its VAT; a line whose VAT no shop states fails the run
 * and books nothing; a Shopify order id above 2^53 is the same order, to the digit, all the way.
 */
import { describe, expect, it } from "vitest";
import { reference } from "../../../src/ledger/refs";
import { corpus as shopifyCorpus } from "../../fixtures/orders/shopify";
import { corpus as stripeCorpus, stripeBasil } from "../../fixtures/orders/stripe";
import { shopTenant, waitFor } from "../../helpers/orders";

type Json = Record<string, unknown>;
const invoiceOf = (event: Json) =>
  (event["data"] as { object: Json & { lines: { data: Json[] } } }).object;
/**
 * A NOK invoice of tax-exclusive lines: Stripe adds the VAT on top, so 0 % would show in the total.
 */
const exclusive = stripeCorpus().find(
  (c) =>
    c.currency === "NOK" &&
    invoiceOf(c.payload).lines.data.some(
      (l) => (l["tax_amounts"] as { inclusive: boolean }[])[0]?.inclusive === false,
    ),
);
if (!exclusive) throw new Error("the Stripe corpus has no tax-exclusive NOK invoice");

describe("order sources", () => {
  it("a Stripe invoice.paid in the 2025-03-31 shape (taxes[] with tax_behavior, no tax_amounts) is booked with its VAT", async () => {
    const t = await shopTenant();
    const event = stripeBasil(exclusive.payload);
    const invoice = invoiceOf(event);
    expect(
      invoice.lines.data.every((l) => l["tax_amounts"] === undefined && Array.isArray(l["taxes"])),
    ).toBe(true);
    expect((await t.send("stripe", event)).status).toBe(202);
    const run = await waitFor(t, "stripe", String(invoice["id"]), ["settled", "failed"]);
    expect(run.state, JSON.stringify(run.error)).toBe("settled");
    const [booked] = await t.rows("/OutgoingInvoices");
    expect(booked?.TotalAmount).toBe(exclusive.expectedTotal / 100);
    // The VAT Stripe charged is the VAT booked (to the øre the API's per-line rounding allows).
    const vat = Math.round(Number(booked?.TotalAmount) * 100 - Number(booked?.NetAmount) * 100);
    expect(Math.abs(vat - Number(invoice["tax"]))).toBeLessThanOrEqual(2);
    expect(vat).toBeGreaterThan(0);
  });

  it("a Stripe line that says nothing of its tax: the run is recorded as failed, naming the line, and nothing is booked", async () => {
    const t = await shopTenant();
    const event = stripeBasil(exclusive.payload);
    const invoice = invoiceOf(event);
    delete invoice.lines.data[0]?.["taxes"];
    const res = await t.send("stripe", event);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({
      intake: "failed",
      run: {
        state: "failed",
        error: {
          step: "intake",
          detail: expect.stringContaining(
            "lines.data.0: the line carries neither taxes nor tax_amounts",
          ),
        },
      },
    });
    const run = await waitFor(t, "stripe", String(invoice["id"]), ["failed"]);
    expect(run.steps).toEqual([]);
    expect(
      (await t.orders(`/stripe/${String(invoice["id"])}/retry`, { method: "POST" })).status,
    ).toBe(409);
    expect(await t.rows("/Customers")).toHaveLength(0);
    expect(await t.rows("/OutgoingInvoices")).toHaveLength(0);
  });

  it("a Shopify order id above 2^53 (as in Shopify's test notification) is kept exactly: the run, its reference and its invoice", async () => {
    const t = await shopTenant();
    const order = shopifyCorpus().find((c) => c.currency === "NOK");
    if (!order) throw new Error("the Shopify corpus has no NOK order");
    const id = "820982911946154508";
    const body = JSON.stringify(order.payload).replace(
      `"id":${String(order.payload.id)},`,
      `"id":${id},`,
    );
    const res = await t.send("shopify", body);
    expect(res.status, await res.clone().text()).toBe(202);
    const run = await waitFor(t, "shopify", id, ["settled", "failed"]);
    expect(run.state, JSON.stringify(run.error)).toBe("settled");
    const [invoice] = await t.rows("/OutgoingInvoices");
    expect(invoice?.ExternalImportReference).toBe(reference("shopify", "o", id));
    // 820982911946154500, where a JS number would have rounded it, is another order: none such
    // here.
    expect((await t.orders("/shopify/820982911946154500")).status).toBe(404);
  });
});
