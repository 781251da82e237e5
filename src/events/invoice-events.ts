/**
 * @module
 * Events about outgoing invoices, built the same way whoever saw the change, so their keys agree.
 */
import { eventData } from "./data";
import { balanceKey, eventKey, field } from "./keys";
import type { EventDraft } from "./types";

/** An invoice's sent state as `GET /SalesOrders/sentState` answers it (the fields used here). */
export interface SentInvoice {
  /** The sales order's id, which the API keeps as the invoice's. */
  Id: string;
  InvoiceNo: number;
  SentDateTimeOffset: string | null;
  InvoiceDeliveryType: string | null;
}

/** `outgoing_invoice.created` and `.sent` of an invoice just made and sent. */
export function sentDrafts(sent: SentInvoice, at: number): EventDraft[] {
  const data = { ...sent };
  return [
    {
      type: "outgoing_invoice.created",
      at,
      data,
      key: eventKey("outgoing_invoice.created", sent.InvoiceNo),
    },
    {
      type: "outgoing_invoice.sent",
      at,
      data,
      key: eventKey("outgoing_invoice.sent", sent.InvoiceNo, sent.SentDateTimeOffset ?? "sent"),
    },
  ];
}

/** `outgoing_invoice.paid` (balance zero) or `.balance_changed` of each invoice as answered. */
export function balanceDrafts(
  invoices: readonly Record<string, unknown>[],
  at: number,
): EventDraft[] {
  return invoices.flatMap((invoice): EventDraft[] => {
    const balance = Number(field(invoice, "Balance"));
    const total = Number(field(invoice, "TotalPostedAmount") ?? Number.NaN);
    if (!Number.isFinite(balance)) return [];
    // The API's own rule: a balance of zero is "paid" in its GUI (an empty invoice is not).
    const type =
      balance === 0 && total !== 0 ? "outgoing_invoice.paid" : "outgoing_invoice.balance_changed";
    return [{ type, at, data: eventData(invoice, ["Balance"]), key: balanceKey(type, invoice) }];
  });
}
