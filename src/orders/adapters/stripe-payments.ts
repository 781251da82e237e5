/**
 * @module
 * Stripe events that name an order's payment apart from the order: `checkout.session.completed`
 * (a Checkout Session that made an invoice: its `invoice` and its `payment_intent`) and, since API
 * version 2025-03-31, `invoice_payment.paid` (an InvoicePayment: its `invoice` and its payment's
 * `payment_intent` or `charge`). Since that version neither `invoice.paid` nor a charge links the
 * payment to the invoice any more, so these are how a payout's balance transaction, which names
 * the payment, finds its order (`ledger/payment-refs.ts`). Pure.
 *
 * A session or payment without an invoice names no order of ledgergate's (orders are Stripe
 * invoices): it is acknowledged and ignored.
 */
import { z } from "zod";
import type { OrderEvent } from "../order";
import { parseWith } from "./payload";
import type { SourceAdapter } from "./source";

const Id = z.string().min(1).max(255);
/** An id, or the object it names when expanded. */
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

/**
 * The order and payment references `type`'s object names (`checkout.session.completed` or
 * `invoice_payment.paid`).
 */
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
