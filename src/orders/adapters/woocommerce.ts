/**
 * @module
 * WooCommerce webhooks: `X-WC-Webhook-Signature` is base64 HMAC-SHA256 of the raw body; no
 * timestamp and no event id, so de-duplication is left to the order's record. An `order.created` or
 * `order.updated` that is processing or completed with a payment date is the payment; its
 * `refunds` are `refunded` events each time (the run credits a refund once).
 */
import type { OrderEvent } from "../order";
import { badBody, decodeJson, header, paidEvent, parseWith, unauthorized } from "./payload";
import { verifyBase64Hmac } from "./signature";
import type { SourceAdapter } from "./source";
import { toOrder, WooOrder } from "./woocommerce-order";

const PAID_STATUSES = new Set(["processing", "completed"]);

/**
 * The refunded events of an order's `refunds[]`, which name no lines (left to the run) and no date
 * (the order's last change stands in).
 */
function refundEvents(o: WooOrder): OrderEvent[] {
  const at = o.date_modified_gmt ?? o.date_created_gmt;
  return o.refunds
    .filter((r) => r.total < 0)
    .map((r) => ({
      kind: "refunded",
      orderId: o.id,
      refund: { id: r.id, at, lines: [], total: -r.total },
    }));
}

export const woocommerce: SourceAdapter = {
  source: "woocommerce",

  /** Woo's unsigned `webhook_id=<id>`, posted when a webhook is saved; it activates on a 200. */
  isPing(delivery) {
    if (delivery.headers.has("X-WC-Webhook-Signature") || delivery.body.byteLength > 64)
      return false;
    return /^webhook_id=\d+$/.test(new TextDecoder().decode(delivery.body).trim());
  },

  async verify(delivery, secret) {
    const sig = header(delivery.headers, "X-WC-Webhook-Signature");
    if (sig === null) return unauthorized("missing X-WC-Webhook-Signature header");
    if (!(await verifyBase64Hmac(secret, delivery.body, sig)))
      return unauthorized("signature does not match the body");
    return { ok: true, value: { eventId: null, signedAt: null } };
  },

  parse(delivery) {
    const topic = header(delivery.headers, "X-WC-Webhook-Topic");
    if (topic === null) return badBody("missing X-WC-Webhook-Topic header");
    const json = decodeJson(delivery.body);
    if (!json.ok) return json;
    if (topic !== "order.created" && topic !== "order.updated") {
      return {
        ok: true,
        value: [
          { kind: "ignored", orderId: null, reason: `topic ${topic.slice(0, 60)} is not used` },
        ],
      };
    }
    const parsed = parseWith(WooOrder, json.value, "WooCommerce order");
    if (!parsed.ok) return parsed;
    const o = parsed.value;
    if (o.status === "cancelled")
      return {
        ok: true,
        value: [
          { kind: "cancelled", orderId: o.id, at: o.date_modified_gmt ?? o.date_created_gmt },
        ],
      };
    if (o.status === "refunded") {
      const refunds = refundEvents(o);
      return {
        ok: true,
        value:
          refunds.length > 0
            ? refunds
            : [{ kind: "ignored", orderId: o.id, reason: "refunded order lists no refunds" }],
      };
    }
    const paid = o.date_paid_gmt != null || o.date_paid != null;
    if (!PAID_STATUSES.has(o.status) || !paid)
      return {
        ok: true,
        value: [
          { kind: "ignored", orderId: o.id, reason: `status ${o.status.slice(0, 30)} is not paid` },
        ],
      };
    const order = toOrder(o);
    if (!order.ok) return order;
    const event = paidEvent(order.value);
    return event.ok ? { ok: true, value: [...event.value, ...refundEvents(o)] } : event;
  },
};
