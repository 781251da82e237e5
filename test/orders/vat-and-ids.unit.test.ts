/**
 * Two promises every adapter keeps: a line's VAT is never guessed (a line whose VAT the shop does
 * not state, or states at a rate that is not Norwegian, makes the order unusable, which the tenant
 * records as a failed run, instead of booking it at 0 %), and shop ids are kept exactly as sent,
 * never through a JS number (Shopify's ids pass 2^53).
 */
import { describe, expect, it } from "vitest";
import { decodeJson } from "../../src/orders/adapters/payload";
import { corpus as shopifyCorpus, shopifyRefund } from "../fixtures/orders/shopify";
import { corpus as wooCorpus } from "../fixtures/orders/woocommerce";
import { eventsOf, must } from "./adapters/security";

type Json = Record<string, unknown>;
const shopify = must(shopifyCorpus().find((c) => c.name.includes("mixed VAT"))).payload;
const woo = must(wooCorpus().find((c) => c.name.includes("mixed VAT"))).payload;
/** Shopify's own test notification names this order: above 2^53, so no JS number holds it. */
const BIG = "820982911946154508";

/** `payload` as JSON text with the first `"key":<value>` replaced by a raw big integer literal. */
function withRaw(payload: unknown, key: string, value: unknown, raw: string): string {
  const text = JSON.stringify(payload);
  const from = `"${key}":${JSON.stringify(value)}`;
  expect(text).toContain(from);
  return text.replace(from, `"${key}":${raw}`);
}

describe("VAT is never guessed", () => {
  const items = () => structuredClone(shopify["line_items"]) as Json[];

  it("shopify: a charged item Shopify calls taxable but gives no tax line, or a line without tax_lines, makes the order unusable", async () => {
    const taxable = items();
    Object.assign(must(taxable[0]), { taxable: true, tax_lines: [] });
    expect(await eventsOf("shopify", { ...shopify, line_items: taxable })).toEqual([
      {
        kind: "unusable",
        orderId: String(shopify["id"]),
        reason: expect.stringContaining(
          "line_items.0: the line is charged and taxable, but Shopify states no tax for it",
        ),
      },
    ]);
    const untold = items();
    delete must(untold[1])["tax_lines"];
    expect((await eventsOf("shopify", { ...shopify, line_items: untold }))[0]).toMatchObject({
      kind: "unusable",
      reason: expect.stringContaining("line_items.1:"),
    });
    const shipping = structuredClone(shopify["shipping_lines"]) as Json[];
    delete must(shipping[0])["tax_lines"];
    expect((await eventsOf("shopify", { ...shopify, shipping_lines: shipping }))[0]).toMatchObject({
      kind: "unusable",
      reason: expect.stringContaining("shipping_lines.0:"),
    });
  });

  it("shopify: an item marked taxable: false is zero-rated, as Shopify says", async () => {
    const untaxed = items();
    Object.assign(must(untaxed[0]), { taxable: false, tax_lines: [] });
    const [event] = await eventsOf("shopify", { ...shopify, line_items: untaxed });
    expect(event?.kind === "paid" && event.order.lines[0]?.vat).toBe("zero");
  });

  it("woocommerce: a line whose tax fits no Norwegian rate makes the order unusable", async () => {
    const lines = structuredClone(woo["line_items"]) as Json[];
    // 7 % of the line: no rate named, and no Norwegian rate explains it.
    Object.assign(must(lines[0]), {
      taxes: [],
      total_tax: (Number(must(lines[0])["total"]) * 0.07).toFixed(2),
    });
    expect(await eventsOf("woocommerce", { ...woo, line_items: lines, tax_lines: [] })).toEqual([
      {
        kind: "unusable",
        orderId: String(woo["id"]),
        reason: expect.stringContaining("line_items.0: the tax is not at a Norwegian VAT rate"),
      },
    ]);
  });
});

describe("shop ids are kept exactly as sent", () => {
  it("reads integer literals beyond 2^53 as their digits, and leaves other numbers alone", () => {
    const body = new TextEncoder().encode(
      `{"id":${BIG},"n":[9007199254740993,-9007199254740993],"price":199.9,"qty":3,"big":1e400}`,
    );
    expect(decodeJson(body)).toEqual({
      ok: true,
      value: {
        id: BIG,
        n: ["9007199254740993", "-9007199254740993"],
        price: 199.9,
        qty: 3,
        big: Infinity,
      },
    });
  });

  it("shopify: an order, its lines and its customer with ids beyond 2^53", async () => {
    const line = must((shopify["line_items"] as Json[])[0]);
    const customer = shopify["customer"] as Json;
    let body = withRaw(shopify, "id", shopify["id"], BIG);
    body = body
      .replace(`"id":${String(line["id"])},`, `"id":9007199254740993,`)
      .replace(`"id":${String(customer["id"])},`, `"id":18446744073709551615,`);
    const [event] = await eventsOf("shopify", body);
    if (event?.kind !== "paid") throw new Error(`not paid: ${JSON.stringify(event)}`);
    expect(event.order.id).toBe(BIG);
    expect(event.order.lines[0]?.ref).toBe("9007199254740993");
    expect(event.order.buyer.externalId).toBe("18446744073709551615");
  });

  it("shopify: a refund names its big order id exactly", async () => {
    const refund = shopifyRefund(shopify, [
      { lineId: must((shopify["line_items"] as Json[])[0])["id"] as number, quantity: 1 },
    ]);
    const body = JSON.stringify(refund).replaceAll(
      `"order_id":${String(shopify["id"])}`,
      `"order_id":${BIG}`,
    );
    const [event] = await eventsOf("shopify", body, { topic: "refunds/create" });
    expect(event).toMatchObject({ kind: "refunded", orderId: BIG });
  });

  it("woocommerce: a customer id beyond 2^53 is the buyer's exact id; 0 is a guest", async () => {
    const [event] = await eventsOf(
      "woocommerce",
      withRaw({ ...woo, customer_id: 1 }, "customer_id", 1, "18446744073709551615"),
    );
    expect(event?.kind === "paid" && event.order.buyer.externalId).toBe("18446744073709551615");
    const [guest] = await eventsOf("woocommerce", { ...woo, customer_id: 0 });
    expect(guest?.kind === "paid" && guest.order.buyer.externalId).toBe(null);
  });
});
