/**
 * @module
 * Stripe webhooks. `Stripe-Signature: t=<unix>,v1=<hex>…`: hex HMAC-SHA256 of `${t}.${rawBody}`
 * under the secret as text; any `v1` may match (a secret roll), and `t` must be within five
 * minutes of now. The event id is the de-duplication key. Events: `invoice.paid`,
 * `invoice.voided`, `charge.refunded`, the payment links (`stripe-payments.ts`) and payouts.
 */
import { z } from "zod";
import type { Result } from "../../kernel/result";
import { stripeMinor } from "../../ledger/money";
import type { OrderEvent } from "../order";
import {
  badBody,
  decodeJson,
  header,
  paidEvent,
  parseWith,
  unauthorized,
  unixToIso,
} from "./payload";
import { concatBytes, MAX_SIGNATURE_HEADER_CHARS, verifyHexHmac } from "./signature";
import type { Refusal, SourceAdapter } from "./source";
import { stripePayoutEvents } from "../../payouts/stripe/events";
import { paymentRefsOf, StripeInvoice, toOrder } from "./stripe-invoice";
import { stripePaymentEvents } from "./stripe-payments";

/** How far the signed timestamp may be from now, seconds: Stripe's own library default. */
export const STRIPE_TOLERANCE_S = 300;

/** Most `v1` signatures checked: a secret roll has two. */
const MAX_SIGNATURES = 8;

const Event = z.object({
  id: z.string().min(1).max(100),
  type: z.string(),
  created: z.int(),
  data: z.object({ object: z.unknown() }),
});

const Charge = z.object({
  id: z.string(),
  currency: z.string().regex(/^[A-Za-z]{3}$/),
  invoice: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  refunds: z
    .object({
      data: z.array(
        z.object({
          id: z.string().min(1).max(100),
          amount: z.int().nonnegative(),
          created: z.int(),
          status: z.string().nullish(),
        }),
      ),
    })
    .nullish(),
});

/** The body as a Stripe event, read with `schema` (`verify` reads only its id). */
function stripeEvent<T extends z.ZodType>(
  body: Uint8Array,
  schema: T,
): Result<z.output<T>, Refusal> {
  const json = decodeJson(body);
  return json.ok ? parseWith(schema, json.value, "Stripe event") : json;
}

/** `t` and the `v1` values of a Stripe-Signature header; null when it has no `t` or no `v1`. */
function parseHeader(value: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of value.split(",")) {
    const eq = part.indexOf("=");
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === "t" && /^\d{1,12}$/.test(val)) t = Number(val);
    else if (key === "v1" && v1.length < MAX_SIGNATURES) v1.push(val);
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

const ignored = (orderId: string | null, reason: string): { ok: true; value: OrderEvent[] } => ({
  ok: true,
  value: [{ kind: "ignored", orderId, reason }],
});

function chargeRefunded(object: unknown): ReturnType<SourceAdapter["parse"]> {
  const c = parseWith(Charge, object, "Stripe charge");
  if (!c.ok) return c;
  const invoice =
    typeof c.value.invoice === "string" ? c.value.invoice : (c.value.invoice?.id ?? null);
  if (invoice === null) return ignored(null, "charge is not for an invoice");
  // Since API version 2022-11-15 a charge no longer embeds its refunds; subscribe to an older
  // version or expand them.
  if (!c.value.refunds) return ignored(invoice, "charge carries no refunds list");
  const events: OrderEvent[] = c.value.refunds.data
    .filter((r) => (r.status ?? "succeeded") === "succeeded" && r.amount > 0)
    .map((r) => ({
      kind: "refunded",
      orderId: invoice,
      refund: {
        id: r.id,
        at: unixToIso(r.created),
        lines: [],
        total: stripeMinor(r.amount, c.value.currency),
      },
    }));
  return events.length > 0 ? { ok: true, value: events } : ignored(invoice, "no succeeded refund");
}

export const stripe: SourceAdapter = {
  source: "stripe",

  async verify(delivery, secret, now) {
    const raw = header(delivery.headers, "Stripe-Signature");
    if (raw === null) return unauthorized("missing Stripe-Signature header");
    const sig = raw.length <= MAX_SIGNATURE_HEADER_CHARS ? parseHeader(raw) : null;
    if (sig === null) return unauthorized("Stripe-Signature needs t= and v1=");
    if (!(await verifyHexHmac(secret, concatBytes(`${sig.t}.`, delivery.body), sig.v1)))
      return unauthorized("signature does not match the body");
    if (Math.abs(now / 1000 - sig.t) > STRIPE_TOLERANCE_S)
      return unauthorized("stale timestamp: the signature is more than 300 s from now");
    const event = stripeEvent(delivery.body, Event.pick({ id: true }));
    return event.ok ? { ok: true, value: { eventId: event.value.id, signedAt: sig.t } } : event;
  },

  parse(delivery) {
    const event = stripeEvent(delivery.body, Event);
    if (!event.ok) return event;
    const { type, data, created } = event.value;
    switch (type) {
      case "invoice.paid": {
        const inv = parseWith(StripeInvoice, data.object, "Stripe invoice");
        if (!inv.ok) return inv;
        const order = toOrder(inv.value);
        if (!order.ok) return order;
        const events = paidEvent(order.value);
        const refs = paymentRefsOf(inv.value);
        return events.ok && refs.length > 0
          ? { ok: true, value: events.value.map((e) => (e.kind === "paid" ? { ...e, refs } : e)) }
          : events;
      }
      case "invoice.voided": {
        const inv = parseWith(
          StripeInvoice.pick({ id: true, status_transitions: true }),
          data.object,
          "Stripe invoice",
        );
        if (!inv.ok) return inv;
        return {
          ok: true,
          value: [
            {
              kind: "cancelled",
              orderId: inv.value.id,
              at: unixToIso(inv.value.status_transitions?.voided_at ?? created),
            },
          ],
        };
      }
      case "charge.refunded":
        return chargeRefunded(data.object);
      case "checkout.session.completed":
      case "invoice_payment.paid":
        return stripePaymentEvents(type, data.object);
      case "payout.paid":
      case "payout.reconciliation_completed":
      case "payout.failed":
        return stripePayoutEvents(type, data.object, created);
      default:
        return type.length > 0
          ? ignored(null, `event ${type.slice(0, 60)} is not used`)
          : badBody("Stripe event: type is empty");
    }
  },
};
