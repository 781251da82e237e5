/**
 * @module
 * Events about outgoing invoices, built the same way whoever saw the change, so their keys agree.
 * Every one's data carries the invoice's ids (`InvoiceIds`); receivers key by `InvoiceNo`.
 */
import { toDecimal } from "../ledger/money";
import { eventData } from "./data";
import { balanceKey, eventKey, field } from "./keys";
import type { EventData, EventDraft } from "./types";

/** The ids every `outgoing_invoice.*` event's data leads with (docs/events.md). */
export interface InvoiceIds {
  /** The one id every announcer knows: the events' key. */
  InvoiceNo: number;
  /** The sales order the invoice was made from; null where only the invoice was read. */
  SalesOrderId: string | null;
  /** The invoice voucher's id (`GET /OutgoingInvoices`' `Id`); null where it was not read. */
  InvoiceId: string | null;
}

/** An invoice's sent state (`GET /SalesOrders/sentState`, or a list's row) and its ids. */
export interface SentInvoice extends InvoiceIds {
  SentDateTimeOffset: string | null;
  InvoiceDeliveryType: string | null;
}

/** What an order run's settlement knows of the invoice (or credit note) it paid in full. */
export interface SettledInvoice extends InvoiceIds {
  /** The amount settled, in minor units: the invoice's total (negative for a credit note). */
  total: number;
  currency: string;
}

/** `outgoing_invoice.created` and `.sent` of an invoice just made and sent. */
export function sentDrafts(sent: SentInvoice, at: number): EventDraft[] {
  const data = withIds(sent, {
    SentDateTimeOffset: sent.SentDateTimeOffset,
    InvoiceDeliveryType: sent.InvoiceDeliveryType,
  });
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
    const ids = rowIds(invoice);
    const balance = Number(field(invoice, "Balance"));
    const total = Number(field(invoice, "TotalPostedAmount") ?? Number.NaN);
    if (!ids || !Number.isFinite(balance)) return [];
    // The API's own rule: a balance of zero is "paid" in its GUI (an empty invoice is not).
    const type =
      balance === 0 && total !== 0 ? "outgoing_invoice.paid" : "outgoing_invoice.balance_changed";
    const data = withIds(ids, eventData(withIds(ids, invoice), ["Balance"]));
    return [{ type, at, data, key: balanceKey(type, invoice) }];
  });
}

/**
 * `outgoing_invoice.paid` of an invoice an order run's settlement paid, from the run's own
 * results (no read): keyed as the watcher keys the same balance row, so it is one event.
 */
export function settledDrafts(s: SettledInvoice, at: number): EventDraft[] {
  if (s.total === 0) return [];
  const data = withIds(s, {
    Balance: 0,
    TotalPostedAmount: toDecimal(s.total),
    CurrencyCode: s.currency,
  });
  const type = "outgoing_invoice.paid";
  return [{ type, at, data, key: balanceKey(type, data) }];
}

/** The ids of an invoice as `GET /OutgoingInvoices` lists it (its `Id` the voucher's). */
export function rowIds(row: Record<string, unknown>): InvoiceIds | null {
  const invoiceNo = Number(field(row, "InvoiceNo"));
  if (!Number.isSafeInteger(invoiceNo)) return null;
  const id = field(row, "Id");
  return {
    InvoiceNo: invoiceNo,
    SalesOrderId: null,
    InvoiceId: id === undefined || id === null ? null : String(id),
  };
}

/** `rest` led by the ids, which win over any field of the same name. */
function withIds(ids: InvoiceIds, rest: EventData): EventData {
  const { InvoiceNo, SalesOrderId, InvoiceId } = ids;
  const lead = { InvoiceNo, SalesOrderId, InvoiceId };
  return { ...lead, ...withoutId(rest), ...lead };
}

/** `record` without its `Id`: an invoice's data names its ids by what they are. */
function withoutId(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => k.toLowerCase() !== "id"));
}
