import { describe, expect, it } from "vitest";
import { woocommerce } from "../../../src/orders/adapters/woocommerce";
import { sign, TEST_SECRETS, toDelivery, wooPing } from "../../fixtures/orders/sign";
import { corpus, wooCancelled, wooRefunded } from "../../fixtures/orders/woocommerce";
import { eventsOf, must, parseSigned, signatureSuite } from "./security";

const cases = corpus();
const mixed = must(cases.find((c) => c.name.includes("mixed VAT")));
const order = mixed.payload;
const secret = TEST_SECRETS.woocommerce;

signatureSuite("woocommerce", order, "X-WC-Webhook-Signature");

describe("woocommerce verify and ping", () => {
  it("has no event id (the delivery id changes on every delivery) and no timestamp", async () => {
    const result = await woocommerce.verify(
      toDelivery(await sign("woocommerce", order, secret)),
      secret,
      Date.now(),
    );
    expect(result).toEqual({ ok: true, value: { eventId: null, signedAt: null } });
  });

  it("recognizes the unsigned activation ping", () => {
    expect(woocommerce.isPing?.(toDelivery(wooPing(31)))).toBe(true);
  });

  it("does not take a signed delivery or another body for a ping", async () => {
    expect(woocommerce.isPing?.(toDelivery(await sign("woocommerce", order, secret)))).toBe(false);
    expect(
      woocommerce.isPing?.(
        toDelivery({ ...wooPing(), headers: { "X-WC-Webhook-Signature": "abc=" } }),
      ),
    ).toBe(false);
    expect(woocommerce.isPing?.(toDelivery({ ...wooPing(), body: "webhook_id=12&x=1" }))).toBe(
      false,
    );
    expect(woocommerce.isPing?.(toDelivery({ ...wooPing(), body: JSON.stringify(order) }))).toBe(
      false,
    );
  });
});

describe("woocommerce parse", () => {
  it("refuses a body that is not JSON, or the wrong shape, with 400", async () => {
    expect(await parseSigned("woocommerce", "<html>")).toMatchObject({
      ok: false,
      error: { status: 400 },
    });
    const wrong = await parseSigned("woocommerce", {
      ...order,
      line_items: [{ id: 1, quantity: 1, subtotal: "x", total: "1.00", total_tax: "0.25" }],
    });
    expect(wrong).toMatchObject({ ok: false, error: { status: 400 } });
    if (!wrong.ok) expect(wrong.error.detail).toContain("line_items.0.subtotal");
    expect(
      woocommerce.parse({ headers: new Headers(), body: new TextEncoder().encode("{}") }),
    ).toMatchObject({ ok: false, error: { status: 400 } });
  });

  it("maps a paid order tax-exclusive: line totals, discounts as subtotal − total, shipping and fees", async () => {
    const [event] = await eventsOf("woocommerce", order);
    if (event?.kind !== "paid") throw new Error("not paid");
    const o = event.order;
    expect(o).toMatchObject({
      source: "woocommerce",
      id: String(order["id"]),
      number: String(order["id"]),
      taxIncluded: false,
      total: mixed.expectedTotal,
    });
    expect(o.placedAt).toBe(`${String(order["date_created_gmt"])}Z`);
    expect(o.paidAt).toBe(`${String(order["date_paid_gmt"])}Z`);
    expect(o.lines.map((l) => [l.kind, l.vat])).toEqual([
      ["item", "25"],
      ["item", "15"],
      ["item", "12"],
      ["item", "zero"],
      ["shipping", "25"],
      ["fee", "25"],
    ]);
    expect(o.buyer.organizationNumber).toBe(mixed.orgNumber);
  });

  it("reads the rate off total_tax / total when the tax lines carry no rate_percent", async () => {
    const bare = { ...order, tax_lines: [] };
    const [event] = await eventsOf("woocommerce", bare);
    if (event?.kind !== "paid") throw new Error("not paid");
    expect(event.order.lines.map((l) => l.vat)).toEqual(["25", "15", "12", "zero", "25", "25"]);
    // 49.90 with 15 % inside: Woo writes 43.39 + 6.51.
    const chocolate = {
      ...order,
      tax_lines: [],
      line_items: [
        {
          id: 1,
          name: "Sjokolade",
          sku: "",
          quantity: 1,
          subtotal: "43.39",
          subtotal_tax: "6.51",
          total: "43.39",
          total_tax: "6.51",
          taxes: [],
        },
      ],
      shipping_lines: [],
      fee_lines: [],
      total: "49.90",
    };
    const [c] = await eventsOf("woocommerce", chocolate);
    expect(c?.kind === "paid" && c.order.lines[0]?.vat).toBe("15");
  });

  it("ignores orders that are not paid, and other topics", async () => {
    expect((await eventsOf("woocommerce", { ...order, status: "pending" }))[0]?.kind).toBe(
      "ignored",
    );
    expect(
      (
        await eventsOf("woocommerce", {
          ...order,
          status: "on-hold",
          date_paid: null,
          date_paid_gmt: null,
        })
      )[0]?.kind,
    ).toBe("ignored");
    expect(
      (await eventsOf("woocommerce", { ...order, date_paid: null, date_paid_gmt: null }))[0]?.kind,
    ).toBe("ignored");
    expect(await eventsOf("woocommerce", order, { topic: "product.updated" })).toEqual([
      { kind: "ignored", orderId: null, reason: "topic product.updated is not used" },
    ]);
  });

  it("maps a cancelled order to cancelled", async () => {
    expect(await eventsOf("woocommerce", wooCancelled(order))).toEqual([
      { kind: "cancelled", orderId: String(order["id"]), at: "2026-03-03T08:00:00Z" },
    ]);
  });

  it("adds one refunded event per refund to a paid order, and only refunds once it is refunded", async () => {
    const partly = wooRefunded(wooRefunded(order, 10_000), 2_550);
    const events = await eventsOf("woocommerce", partly);
    expect(events.map((e) => e.kind)).toEqual(["paid", "refunded", "refunded"]);
    expect(
      events.slice(1).map((e) => (e.kind === "refunded" ? [e.refund.total, e.refund.lines] : null)),
    ).toEqual([
      [2_550, []],
      [10_000, []],
    ]);
    const full = wooRefunded(partly, mixed.expectedTotal - 12_550);
    expect(full["status"]).toBe("refunded");
    const after = await eventsOf("woocommerce", full);
    expect(after.map((e) => e.kind)).toEqual(["refunded", "refunded", "refunded"]);
    expect(after.reduce((s, e) => s + (e.kind === "refunded" ? e.refund.total : 0), 0)).toBe(
      mixed.expectedTotal,
    );
  });
});
