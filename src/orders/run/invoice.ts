/**
 * @module
 * Steps "send invoice" and "delivery". CreateAndSendInvoice is not idempotent, so a send that may
 * follow an earlier one asks `sentState` first. See docs/design/order-runs.md.
 */
import type { z } from "zod";
import type { SendInvoiceRequestPost } from "../../../shared/v2/sales";
import type { OrderMapping } from "../../ledger/mapping";
import { expectStatus, RunError, type RunApi } from "../../ledger/run-api";
import { parseRows, SentStateReply } from "../../ledger/replies";

/** What the run posts to `POST /SalesOrders/{id}/createAndSendInvoice`. */
type SendBody = z.input<typeof SendInvoiceRequestPost>;

export type Delivery =
  | { state: "processing" }
  | { state: "sent"; invoiceNo: number; deliveryType: string | null; sentAt: string | null }
  | { state: "failed"; error: string };

/** What one row of `sentState` says of its order's invoice. */
export function deliveryOf(s: SentStateReply): Delivery {
  if (s.IsInvoiceBeingProcessed) return { state: "processing" };
  if (s.InvoiceNo != null)
    return {
      state: "sent",
      invoiceNo: s.InvoiceNo,
      deliveryType: s.InvoiceDeliveryType ?? null,
      sentAt: s.SentDateTimeOffset ?? null,
    };
  return { state: "failed", error: s.LastErrorMessage ?? "The invoice could not be delivered." };
}

/** The delivery state of a sales order's invoice, or null when it was never sent. */
export async function sentState(api: RunApi, salesOrderId: string): Promise<Delivery | null> {
  const reply = await api.call("GET", `/SalesOrders/sentState?id=${salesOrderId}`);
  if (reply.status === 404) return null;
  const [s] = parseRows(expectStatus(reply, "Reading sentState", 200, 204), SentStateReply);
  return s ? deliveryOf(s) : null;
}

/**
 * Every send request's state, by sales order id: `sentState` without `id`, whose answer the API
 * does not document (the sandbox lists the client's every request). Rows without an id are left out.
 */
export async function sentStates(api: RunApi): Promise<Map<string, Delivery>> {
  const reply = await api.call("GET", "/SalesOrders/sentState");
  const rows = parseRows(expectStatus(reply, "Listing sentState", 200, 204), SentStateReply);
  return new Map(rows.flatMap((r) => (r.Id ? [[r.Id.toLowerCase(), deliveryOf(r)] as const] : [])));
}

/**
 * Sends the invoice; answers the state after. With `checkFirst` (an attempt that may follow an
 * earlier send) only an order never sent, or whose last delivery failed, is sent.
 */
export async function sendInvoice(
  api: RunApi,
  salesOrderId: string,
  mapping: OrderMapping,
  email: string | null,
  checkFirst: boolean,
): Promise<Delivery> {
  const before = checkFirst ? await sentState(api, salesOrderId) : null;
  if (before && before.state !== "failed") return before;
  const body: SendBody = { DeliveryType: mapping.deliveryType };
  if (mapping.deliveryType === "PdfByEmail" && email) body.EmailAddress = email;
  const reply = await api.call<SendBody>(
    "POST",
    `/SalesOrders/${salesOrderId}/createAndSendInvoice`,
    body,
  );
  // 409: a send is already running for this order (another attempt's); follow it like our own.
  if (reply.status === 202 || reply.status === 200 || reply.status === 409)
    return { state: "processing" };
  throw new RunError(`Sending the invoice answered ${reply.status}: ${reply.detail}`, false);
}
