/**
 * @module
 * Standard Webhooks carrying ledgergate's own order JSON: HMAC-SHA256 of
 * `${id}.${timestamp}.${rawBody}` under the `whsec_` secret's base64 bytes, any `v1,` entry of
 * `webhook-signature` matching, the timestamp within five minutes of now. `webhook-id` is the
 * de-duplication key.
 */
import type { PayoutEvent } from "../../payouts/payout";
import type { Result } from "../../kernel/result";
import { formatMinor } from "../../ledger/money";
import type { Order, OrderEvent, OrderLine } from "../order";
import {
  badBody,
  decodeJson,
  header,
  paidEvent,
  parseWith,
  safeEventId,
  unauthorized,
} from "./payload";
import { fromBase64 } from "../../kernel/crypto";
import { concatBytes, MAX_SIGNATURE_HEADER_CHARS, verifyHmac } from "./signature";
import type { Refusal, SourceAdapter } from "./source";
import {
  StandardCancel,
  StandardEnvelope,
  StandardOrder,
  StandardPayout,
  StandardPayoutFailed,
  StandardRefund,
} from "./standard-schema";

/** How far `webhook-timestamp` may be from now, seconds (the specification's reference library). */
export const STANDARD_TOLERANCE_S = 300;

const MAX_SIGNATURES = 8;

/** The HMAC key of a Standard Webhooks secret, or null when it is not base64. */
export function standardKey(secret: string): Uint8Array | null {
  return fromBase64(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
}

/** The normalized order of `data` (see `docs/order-json.md` for the checks and why). */
function toOrder(d: StandardOrder, timestamp: string): Result<Order, Refusal> {
  const lines: OrderLine[] = [];
  for (const [i, l] of d.lines.entries()) {
    const gross = l.unitPrice * l.quantity;
    if (l.discount > gross)
      return badBody(`order: lines.${i}.discount exceeds unitPrice × quantity`);
    lines.push({
      ref: l.id,
      kind: "item",
      sku: l.sku,
      name: l.name,
      quantity: l.quantity,
      amount: gross - l.discount,
      discount: l.discount,
      vat: l.vat,
    });
  }
  for (const [i, s] of d.shipping.entries()) {
    if (s.discount > s.price) return badBody(`order: shipping.${i}.discount exceeds its price`);
    lines.push({
      ref: s.id,
      kind: "shipping",
      sku: null,
      name: s.name,
      quantity: 1,
      amount: s.price - s.discount,
      discount: s.discount,
      vat: s.vat,
    });
  }
  for (const f of d.fees)
    lines.push({
      ref: f.id,
      kind: "fee",
      sku: null,
      name: f.name,
      quantity: 1,
      amount: f.amount,
      discount: 0,
      vat: f.vat,
    });
  const ids = new Set(lines.map((l) => l.ref));
  if (ids.size !== lines.length)
    return badBody(
      "order: line ids must be unique across lines, shipping and fees (refunds name them)",
    );
  const sum = lines.reduce((s, l) => s + l.amount, 0);
  // Inclusive lines are what the buyer pays; exclusive ones get VAT on top, which only adds.
  if (d.taxIncluded ? d.total !== sum : d.total < sum) {
    return badBody(
      `order: total ${formatMinor(d.total)} ${d.taxIncluded ? "must equal" : "cannot be less than"} the sum of the lines, ${formatMinor(sum)}`,
    );
  }
  const b = d.buyer;
  const buyer = {
    externalId: b.id,
    email: b.email,
    firstName: b.firstName,
    lastName: b.lastName,
    company: b.company,
    organizationNumber: b.organizationNumber,
    phone: b.phone,
    address: b.address,
  };
  return {
    ok: true,
    value: {
      source: "standard",
      id: d.id,
      number: d.number,
      placedAt: d.placedAt,
      paidAt: d.paidAt === undefined ? timestamp : d.paidAt,
      currency: d.currency,
      taxIncluded: d.taxIncluded,
      buyer,
      lines,
      total: d.total,
      paymentMethod: d.paymentMethod ?? null,
      paymentTitle: null,
    },
  };
}

function toRefund(d: StandardRefund, timestamp: string): Result<OrderEvent[], Refusal> {
  const sum = d.lines.reduce((s, l) => s + l.amount, 0);
  if (d.lines.length > 0 && sum !== d.total)
    return badBody(
      `refund: total ${formatMinor(d.total)} must equal the sum of its lines, ${formatMinor(sum)}`,
    );
  const lines = d.lines.map((l) => ({
    ref: l.lineId,
    name: l.name,
    quantity: l.quantity,
    amount: l.amount,
    vat: l.vat,
  }));
  return {
    ok: true,
    value: [
      {
        kind: "refunded",
        orderId: d.orderId,
        refund: { id: d.id, at: d.at ?? timestamp, lines, total: d.total },
      },
    ],
  };
}

/** The normalized payout of `data` (its lines as sent: whether they add up is the run's to say). */
function toPayout(d: StandardPayout): PayoutEvent {
  return {
    kind: "payout-paid",
    payout: {
      id: d.id,
      provider: d.provider,
      currency: d.currency,
      amount: d.amount,
      arrivalDate: d.arrivalDate,
      orderSource: d.orderSource,
      lines: d.lines.map((l) => ({ ...l })),
    },
  };
}

export const standard: SourceAdapter = {
  source: "standard",

  async verify(delivery, secret, now) {
    const id = header(delivery.headers, "webhook-id");
    const ts = header(delivery.headers, "webhook-timestamp");
    const sigs = header(delivery.headers, "webhook-signature");
    if (id === null || ts === null || sigs === null)
      return unauthorized("missing webhook-id, webhook-timestamp or webhook-signature header");
    if (
      safeEventId(id) === null ||
      !/^\d{1,12}$/.test(ts) ||
      sigs.length > MAX_SIGNATURE_HEADER_CHARS
    )
      return unauthorized("malformed webhook-id, webhook-timestamp or webhook-signature header");
    const key = standardKey(secret);
    if (key === null) return unauthorized("the configured secret is not a whsec_ base64 secret");
    const candidates = sigs
      .split(" ")
      .filter((e) => e.startsWith("v1,"))
      .slice(0, MAX_SIGNATURES)
      .map((e) => fromBase64(e.slice(3)))
      .filter((s): s is Uint8Array<ArrayBuffer> => s !== null);
    if (!(await verifyHmac(key, concatBytes(`${id}.${ts}.`, delivery.body), candidates)))
      return unauthorized("signature does not match the body");
    if (Math.abs(now / 1000 - Number(ts)) > STANDARD_TOLERANCE_S)
      return unauthorized("stale timestamp: webhook-timestamp is more than 300 s from now");
    return { ok: true, value: { eventId: id, signedAt: Number(ts) } };
  },

  parse(delivery) {
    const json = decodeJson(delivery.body);
    if (!json.ok) return json;
    const env = parseWith(StandardEnvelope, json.value, "event");
    if (!env.ok) return env;
    const { type, timestamp, data } = env.value;
    switch (type) {
      case "order.paid": {
        const d = parseWith(StandardOrder, data, "order");
        if (!d.ok) return d;
        const order = toOrder(d.value, timestamp);
        return order.ok ? paidEvent(order.value) : order;
      }
      case "order.cancelled": {
        const d = parseWith(StandardCancel, data, "cancellation");
        return d.ok
          ? {
              ok: true,
              value: [{ kind: "cancelled", orderId: d.value.orderId, at: d.value.at ?? timestamp }],
            }
          : d;
      }
      case "order.refunded": {
        const d = parseWith(StandardRefund, data, "refund");
        return d.ok ? toRefund(d.value, timestamp) : d;
      }
      case "payout.paid": {
        const d = parseWith(StandardPayout, data, "payout");
        return d.ok ? { ok: true, value: [{ kind: "payout", event: toPayout(d.value) }] } : d;
      }
      case "payout.failed": {
        const d = parseWith(StandardPayoutFailed, data, "payout");
        if (!d.ok) return d;
        const { id, at, reason } = d.value;
        const failed = {
          kind: "payout-failed",
          payoutId: id,
          at: at ?? timestamp,
          reason,
        } as const;
        return {
          ok: true,
          value: [{ kind: "payout", event: { ...failed, reason: reason ?? null } }],
        };
      }
      default:
        return {
          ok: true,
          value: [{ kind: "ignored", orderId: null, reason: `type ${type} is not used` }],
        };
    }
  },
};
