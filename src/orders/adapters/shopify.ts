/**
 * @module
 * Shopify webhooks: `X-Shopify-Hmac-Sha256` (or without `X-`) is base64 HMAC-SHA256 of the raw
 * body; no timestamp is signed, and `X-Shopify-Event-Id` is the de-duplication key. Topics
 * `orders/paid`, `orders/cancelled` and `refunds/create`. The topic and shop headers are unsigned,
 * so a body that contradicts its topic is refused, and the shop is checked per tenant (`shopOf`).
 */
import { z } from "zod";
import type { OrderEvent } from "../order";
import {
  badBody,
  decodeJson,
  header,
  paidEvent,
  parseWith,
  safeEventId,
  unauthorized,
} from "./payload";
import { ShopifyOrder, toOrder } from "./shopify-order";
import { ShopifyRefund, toRefundEvents } from "./shopify-refund";
import { verifyBase64Hmac } from "./signature";
import type { SourceAdapter } from "./source";

/** Financial states of an order paid in full at some point (later refunds do not undo that). */
const PAID_STATES = new Set(["paid", "partially_refunded", "refunded"]);

/** A shop's own domain, as in `X-Shopify-Shop-Domain`: `<handle>.myshopify.com`. */
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/;

export const ShopDomain = z
  .string()
  .max(100)
  .toLowerCase()
  .regex(SHOP_DOMAIN, "expected <shop>.myshopify.com");

/** A body that says otherwise than its (unsigned) topic header: refused, never guessed at. */
const contradicts = (topic: string, why: string) =>
  badBody(`topic ${topic}, but ${why}: the body contradicts the topic`);

const ignored = (orderId: string | null, reason: string): { ok: true; value: OrderEvent[] } => ({
  ok: true,
  value: [{ kind: "ignored", orderId, reason }],
});

export const shopify: SourceAdapter = {
  source: "shopify",

  async verify(delivery, secret) {
    const sig = header(delivery.headers, "X-Shopify-Hmac-Sha256", "Shopify-Hmac-Sha256");
    if (sig === null) return unauthorized("missing X-Shopify-Hmac-Sha256 header");
    if (!(await verifyBase64Hmac(secret, delivery.body, sig)))
      return unauthorized("signature does not match the body");
    const eventId = safeEventId(
      header(delivery.headers, "X-Shopify-Event-Id", "Shopify-Event-Id") ??
        header(delivery.headers, "X-Shopify-Webhook-Id", "Shopify-Webhook-Id"),
    );
    return { ok: true, value: { eventId, signedAt: null } };
  },

  shopOf(delivery) {
    const domain =
      header(delivery.headers, "X-Shopify-Shop-Domain", "Shopify-Shop-Domain")?.toLowerCase() ??
      null;
    return domain !== null && SHOP_DOMAIN.test(domain) ? domain : null;
  },

  parse(delivery) {
    const topic = header(delivery.headers, "X-Shopify-Topic", "Shopify-Topic");
    if (topic === null) return badBody("missing X-Shopify-Topic header");
    const json = decodeJson(delivery.body);
    if (!json.ok) return json;
    switch (topic) {
      case "orders/paid": {
        const o = parseWith(ShopifyOrder, json.value, "Shopify order");
        if (!o.ok) return o;
        // After the test check: a test notification is answered 200 either way.
        if (o.value.test) return ignored(o.value.id, "test order");
        if (o.value.cancelled_at) return contradicts(topic, "the order has cancelled_at");
        if (!PAID_STATES.has(o.value.financial_status ?? ""))
          return ignored(
            o.value.id,
            `financial_status ${o.value.financial_status ?? "missing"} is not paid`,
          );
        const order = toOrder(o.value);
        return order.ok ? paidEvent(order.value) : order;
      }
      case "orders/cancelled": {
        const o = parseWith(
          ShopifyOrder.pick({
            id: true,
            test: true,
            cancelled_at: true,
            updated_at: true,
            created_at: true,
          }),
          json.value,
          "Shopify order",
        );
        if (!o.ok) return o;
        if (o.value.test) return ignored(o.value.id, "test order");
        if (!o.value.cancelled_at) return contradicts(topic, "the order has no cancelled_at");
        return {
          ok: true,
          value: [{ kind: "cancelled", orderId: o.value.id, at: o.value.cancelled_at }],
        };
      }
      case "refunds/create": {
        const r = parseWith(ShopifyRefund, json.value, "Shopify refund");
        return r.ok ? toRefundEvents(r.value) : r;
      }
      default:
        return ignored(null, `topic ${topic.slice(0, 60)} is not used`);
    }
  },
};
