/**
 * @module
 * Stripe events that name an order's payment apart from the order: `checkout.session.completed`
 * and `invoice_payment.paid`. Since API version 2025-03-31 these are how a payout's lines, which
 * name the payment, find the invoice (`ledger/payment-refs.ts`). Without an invoice: ignored.
 */
import { z } from "zod";
import type { OrderEvent } from "../order";
import { parseWith } from "./payload";
import type { SourceAdapter } from "./source";

const Id = z.string().min(1).max(255);
const Ref = z.union([Id, z.object({ id: Id })]).nullish();
const idOf = (r: z.output<typeof Ref>): string | null =>
  r == null ? null : typeof r === "string" ? r : r.id;

const CheckoutSession = z.object({
  id: Id,
  invoice: Ref,
  payment_intent: Ref,
});

const InvoicePayment = z.object({
  id: Id,
  invoice: Ref,
  payment: z.object({ payment_intent: Ref, charge: Ref }).nullish(),
});

/** The payment event, or the reason there is none. */
function linkOf(invoice: string | null, refs: (string | null)[], what: string): OrderEvent {
  const known = refs.filter((r): r is string => r !== null);
  if (invoice === null)
    return { kind: "ignored", orderId: null, reason: `${what} names no invoice: no order of ours` };
  if (known.length === 0)
    return { kind: "ignored", orderId: invoice, reason: `${what} names no payment yet` };
  return { kind: "payment", orderId: invoice, refs: known };
}

/** The order and payment references `type`'s object names. */
export function stripePaymentEvents(
  type: "checkout.session.completed" | "invoice_payment.paid",
  object: unknown,
): ReturnType<SourceAdapter["parse"]> {
  if (type === "checkout.session.completed") {
    const s = parseWith(CheckoutSession, object, "Stripe Checkout Session");
    if (!s.ok) return s;
    // The session's own id as well: a payment made through it may name the session only.
    const refs = [idOf(s.value.payment_intent), s.value.id];
    return {
      ok: true,
      value: [linkOf(idOf(s.value.invoice), idOf(s.value.payment_intent) ? refs : [], type)],
    };
  }
  const p = parseWith(InvoicePayment, object, "Stripe InvoicePayment");
  if (!p.ok) return p;
  const refs = [idOf(p.value.payment?.payment_intent), idOf(p.value.payment?.charge)];
  return { ok: true, value: [linkOf(idOf(p.value.invoice), refs, type)] };
}
