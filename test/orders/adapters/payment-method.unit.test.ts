/**
 * Each adapter reads how the buyer paid: Shopify's gateway names (a gift card passed over for the
 * gateway that took the money), WooCommerce's `payment_method` and its title, the own JSON's
 * `paymentMethod`, and "stripe" for every Stripe invoice.
 */
import { describe, expect, it } from "vitest";
import type { Order } from "../../../src/orders/order";
import { corpus as shopifyCorpus } from "../../fixtures/orders/shopify";
import { corpus as standardCorpus } from "../../fixtures/orders/standard";
import { corpus as stripeCorpus } from "../../fixtures/orders/stripe";
import { corpus as wooCorpus } from "../../fixtures/orders/woocommerce";
import type { Source } from "../../helpers/orders";
import { eventsOf, must } from "./security";

type Json = Record<string, unknown>;

async function paid(source: Source, payload: Json): Promise<Order> {
  const [event] = await eventsOf(source, payload);
  if (event?.kind !== "paid") throw new Error(`not paid: ${JSON.stringify(event)}`);
  return event.order;
}
const method = (o: Order) => [o.paymentMethod, o.paymentTitle];

describe("the payment method of a paid order", () => {
  const shop = must(shopifyCorpus()[0]).payload;
  it.each([
    [["Vipps"], "Vipps"],
    [["gift_card", "Klarna"], "Klarna"],
    [["gift_card"], "gift_card"],
    [[], null],
  ])("Shopify's gateways %j: %s", async (names, expected) => {
    const o = await paid("shopify", { ...shop, payment_gateway_names: names, gateway: undefined });
    expect(method(o)).toEqual([expected, null]);
  });

  it("Shopify's deprecated gateway, when the names are absent", async () => {
    const o = await paid("shopify", {
      ...shop,
      payment_gateway_names: undefined,
      gateway: "Nets Easy",
    });
    expect(o.paymentMethod).toBe("Nets Easy");
  });

  it("WooCommerce's payment_method and its title; blank ones as unsaid", async () => {
    const woo = must(wooCorpus()[0]).payload;
    expect(
      method(
        await paid("woocommerce", {
          ...woo,
          payment_method: "vipps",
          payment_method_title: "Vipps",
        }),
      ),
    ).toEqual(["vipps", "Vipps"]);
    expect(
      method(await paid("woocommerce", { ...woo, payment_method: "", payment_method_title: "" })),
    ).toEqual([null, null]);
  });

  it("the own JSON's paymentMethod, and null when it is left out", async () => {
    const event = must(standardCorpus()[0]).payload;
    const data = event.data as Json;
    expect(
      (await paid("standard", { ...event, data: { ...data, paymentMethod: "vipps" } }))
        .paymentMethod,
    ).toBe("vipps");
    const { paymentMethod: _, ...without } = data;
    expect((await paid("standard", { ...event, data: without })).paymentMethod).toBeNull();
  });

  it("a Stripe invoice is Stripe's", async () => {
    expect(method(await paid("stripe", must(stripeCorpus()[0]).payload))).toEqual(["stripe", null]);
  });
});
