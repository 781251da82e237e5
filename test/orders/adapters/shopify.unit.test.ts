import { describe, expect, it } from "vitest";
import { shopify } from "../../../src/orders/adapters/shopify";
import { corpus, shopifyCancelled, shopifyRefund } from "../../fixtures/orders/shopify";
import { sign, TEST_SECRETS, toDelivery } from "../../fixtures/orders/sign";
import { eventsOf, must, parseSigned, signatureSuite } from "./security";

const cases = corpus();
const inclusive = must(cases.find((c) => c.name.includes("mixed VAT"))).payload;
const exclusive = must(cases.find((c) => c.name.includes("tax-exclusive B2B"))).payload;
const secret = TEST_SECRETS.shopify;

signatureSuite("shopify", inclusive, "X-Shopify-Hmac-Sha256");

describe("shopify verify", () => {
  it("takes the event id as the delivery id, and signs no timestamp", async () => {
    const result = await shopify.verify(
      toDelivery(
        await sign("shopify", inclusive, secret, {
          eventId: "8f1c2a6e-0b6e-4f4f-9a43-2f5d2a1b3c4d",
        }),
      ),
      secret,
      Date.now(),
    );
    expect(result).toEqual({
      ok: true,
      value: { eventId: "8f1c2a6e-0b6e-4f4f-9a43-2f5d2a1b3c4d", signedAt: null },
    });
  });

  it("falls back to the webhook id, and reads the Events spelling without X-", async () => {
    const signed = await sign("shopify", inclusive, secret);
    const headers = {
      "Shopify-Hmac-Sha256": must(signed.headers["X-Shopify-Hmac-Sha256"]),
      "Shopify-Topic": "orders/paid",
      "Shopify-Webhook-Id": "wh-42",
    };
    const result = await shopify.verify(
      toDelivery({ body: signed.body, headers }),
      secret,
      Date.now(),
    );
    expect(result).toEqual({ ok: true, value: { eventId: "wh-42", signedAt: null } });
  });
});

describe("shopify shopOf", () => {
  const named = (headers: Record<string, string>) =>
    shopify.shopOf?.({ headers: new Headers(headers), body: new Uint8Array() });

  it("reads the shop domain, either spelling, lowercased", () => {
    expect(named({ "X-Shopify-Shop-Domain": "fjellbutikken.myshopify.com" })).toBe(
      "fjellbutikken.myshopify.com",
    );
    expect(named({ "Shopify-Shop-Domain": "Fjell-Butikken.MyShopify.com" })).toBe(
      "fjell-butikken.myshopify.com",
    );
  });

  it("is null without a domain or for anything but <shop>.myshopify.com", () => {
    for (const domain of [
      "",
      "fjellbutikken.no",
      "evil.com/x.myshopify.com",
      "a.b.myshopify.com",
      "-x.myshopify.com",
      "x.myshopify.com.evil.com",
    ]) {
      expect(named({ "X-Shopify-Shop-Domain": domain }), domain).toBeNull();
    }
    expect(named({})).toBeNull();
  });
});

describe("shopify parse", () => {
  it("refuses a body that is not JSON with 400", async () => {
    const result = await parseSigned("shopify", "{not json");
    expect(result).toMatchObject({
      ok: false,
      error: { status: 400, detail: "the body is not JSON" },
    });
  });

  it("refuses an order of the wrong shape with 400 naming the field", async () => {
    const result = await parseSigned("shopify", {
      ...inclusive,
      line_items: [{ id: 1, quantity: 1, price: "12,50" }],
    });
    expect(result).toMatchObject({ ok: false, error: { status: 400 } });
    if (!result.ok) expect(result.error.detail).toContain("line_items.0.price");
  });

  it("refuses a delivery without a topic with 400", () => {
    const result = shopify.parse({
      headers: new Headers(),
      body: new TextEncoder().encode(JSON.stringify(inclusive)),
    });
    expect(result).toMatchObject({ ok: false, error: { status: 400 } });
  });

  it("a tax rate that is not Norwegian makes the order unusable: a failed run naming the line, never a guess", async () => {
    const order = structuredClone(inclusive) as { line_items: { tax_lines: { rate: number }[] }[] };
    must(must(order.line_items[0]).tax_lines[0]).rate = 0.2;
    expect(await eventsOf("shopify", order)).toEqual([
      {
        kind: "unusable",
        orderId: String(inclusive["id"]),
        reason: expect.stringContaining("line_items.0: the tax rate is not a Norwegian VAT rate"),
      },
    ]);
  });

  it("maps the order fields", async () => {
    const [event] = await eventsOf("shopify", inclusive);
    if (event?.kind !== "paid") throw new Error("not paid");
    const o = event.order;
    expect(o).toMatchObject({
      source: "shopify",
      id: String(inclusive["id"]),
      number: inclusive["name"],
      placedAt: inclusive["processed_at"],
      taxIncluded: true,
      currency: "NOK",
    });
    expect(o.buyer.company).not.toBeNull();
    expect(o.buyer.address?.countryCode).toBe("NO");
    expect(o.lines.map((l) => l.vat)).toEqual(["25", "15", "12", "zero", "25", "25"]);
    expect(o.lines.at(-1)).toMatchObject({ kind: "shipping", sku: null, quantity: 1 });
  });

  it("ignores test orders and orders that are not paid", async () => {
    expect(await eventsOf("shopify", { ...inclusive, test: true })).toEqual([
      { kind: "ignored", orderId: String(inclusive["id"]), reason: "test order" },
    ]);
    const [pending] = await eventsOf("shopify", { ...inclusive, financial_status: "pending" });
    expect(pending?.kind).toBe("ignored");
    const [refunded] = await eventsOf("shopify", {
      ...inclusive,
      financial_status: "partially_refunded",
    });
    expect(refunded?.kind).toBe("paid");
  });

  it("maps orders/cancelled to cancelled", async () => {
    const events = await eventsOf("shopify", shopifyCancelled(inclusive), {
      topic: "orders/cancelled",
    });
    expect(events).toEqual([
      { kind: "cancelled", orderId: String(inclusive["id"]), at: "2026-03-03T09:00:00+01:00" },
    ]);
  });

  it("refuses a body its topic contradicts: orders/cancelled without cancelled_at, orders/paid with it (400)", async () => {
    const relabelled = await parseSigned(
      "shopify",
      { ...inclusive, cancelled_at: null },
      { topic: "orders/cancelled" },
    );
    expect(relabelled).toMatchObject({ ok: false, error: { status: 400 } });
    if (!relabelled.ok)
      expect(relabelled.error.detail).toBe(
        "topic orders/cancelled, but the order has no cancelled_at: the body contradicts the topic",
      );
    const { cancelled_at: _c, ...noField } = shopifyCancelled(inclusive);
    expect(await parseSigned("shopify", noField, { topic: "orders/cancelled" })).toMatchObject({
      ok: false,
      error: { status: 400 },
    });
    const paidAfterAll = await parseSigned(
      "shopify",
      { ...shopifyCancelled(inclusive), financial_status: "refunded" },
      { topic: "orders/paid" },
    );
    expect(paidAfterAll).toMatchObject({
      ok: false,
      error: {
        status: 400,
        detail: "topic orders/paid, but the order has cancelled_at: the body contradicts the topic",
      },
    });
    // A test order starts nothing either way: still acknowledged (Shopify's own test
    // notifications).
    expect(
      await eventsOf("shopify", { ...inclusive, test: true }, { topic: "orders/cancelled" }),
    ).toEqual([{ kind: "ignored", orderId: String(inclusive["id"]), reason: "test order" }]);
  });

  it("ignores other topics", async () => {
    const events = await eventsOf("shopify", inclusive, { topic: "orders/updated" });
    expect(events).toEqual([
      { kind: "ignored", orderId: null, reason: "topic orders/updated is not used" },
    ]);
  });
});

describe("shopify refunds/create", () => {
  const lineIds = (o: Record<string, unknown>): number[] =>
    (o["line_items"] as { id: number }[]).map((l) => l.id);

  it("reads line refunds of a tax-inclusive order as the subtotal (VAT inside)", async () => {
    const [first, second] = lineIds(inclusive);
    const body = shopifyRefund(inclusive, [
      { lineId: must(first), quantity: 1 },
      { lineId: must(second), quantity: 1 },
    ]);
    const [event] = await eventsOf("shopify", body, { topic: "refunds/create" });
    if (event?.kind !== "refunded") throw new Error("not refunded");
    const items = body["refund_line_items"] as { subtotal: number }[];
    expect(event.refund.lines.map((l) => l.amount)).toEqual(
      items.map((i) => Math.round(i.subtotal * 100)),
    );
    expect(event.refund.lines.map((l) => l.vat)).toEqual(["25", "15"]);
    expect(event.refund.total).toBe(event.refund.lines.reduce((s, l) => s + l.amount, 0));
    expect(event.orderId).toBe(String(inclusive["id"]));
  });

  it("adds the tax to line refunds of a tax-exclusive order, and refunds shipping", async () => {
    const [first] = lineIds(exclusive);
    const body = shopifyRefund(exclusive, [{ lineId: must(first), quantity: 2 }], {
      shipping: true,
    });
    const [event] = await eventsOf("shopify", body, { topic: "refunds/create" });
    if (event?.kind !== "refunded") throw new Error("not refunded");
    const item = must((body["refund_line_items"] as { subtotal: number; total_tax: number }[])[0]);
    expect(event.refund.lines[0]).toMatchObject({
      ref: String(first),
      quantity: 2,
      amount: Math.round(item.subtotal * 100) + Math.round(item.total_tax * 100),
      vat: "25",
    });
    expect(event.refund.lines[1]).toMatchObject({
      ref: null,
      name: "Shipping refund",
      quantity: 1,
      vat: "25",
    });
    const transaction = must((body["transactions"] as { amount: string }[])[0]);
    expect(event.refund.total).toBe(Math.round(Number(transaction.amount) * 100));
    expect(event.refund.total).toBe(event.refund.lines.reduce((s, l) => s + l.amount, 0));
  });

  it("reads a shipping refund of a tax-inclusive order the same way", async () => {
    const [event] = await eventsOf("shopify", shopifyRefund(inclusive, [], { shipping: true }), {
      topic: "refunds/create",
    });
    if (event?.kind !== "refunded") throw new Error("not refunded");
    const shipping = must((inclusive["shipping_lines"] as { discounted_price: string }[])[0]);
    expect(event.refund.lines).toEqual([
      {
        ref: null,
        name: "Shipping refund",
        quantity: 1,
        amount: Math.round(Number(shipping.discounted_price) * 100),
        vat: "25",
      },
    ]);
  });

  it("takes the money that moved as the total, and the lines when no transaction is given", async () => {
    const [first] = lineIds(inclusive);
    const body = shopifyRefund(inclusive, [{ lineId: must(first), quantity: 1 }]);
    const partial = {
      ...body,
      transactions: [
        { kind: "refund", status: "success", amount: "100.00" },
        { kind: "refund", status: "failure", amount: "50.00" },
      ],
    };
    const [a] = await eventsOf("shopify", partial, { topic: "refunds/create" });
    expect(a?.kind === "refunded" && a.refund.total).toBe(10_000);
    const [b] = await eventsOf(
      "shopify",
      { ...body, transactions: [] },
      { topic: "refunds/create" },
    );
    expect(b?.kind === "refunded" && b.refund.total).toBe(89_900);
  });

  it("ignores a refund that moves no money (restock only)", async () => {
    const body = { ...shopifyRefund(inclusive, []), transactions: [] };
    const [event] = await eventsOf("shopify", body, { topic: "refunds/create" });
    expect(event?.kind).toBe("ignored");
  });
});
