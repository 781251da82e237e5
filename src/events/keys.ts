/**
 * @module
 * The de-duplication keys of events: what makes two sightings of one change the same event, so an
 * event is recorded once whoever sees it first and however often. A write through `/v2`, an order
 * run and (issue 30) the watcher all derive their keys here, from the record as the API answers
 * it, so a change ledgergate announced from its own write is not announced again when the watcher
 * later reads the same record.
 *
 * The rule: the event type, the record's id, and the marker of the change the API itself keeps
 * (`LastChangedDateTimeOffset`, `BalanceLastChangedDateTimeOffset`, `SentDateTimeOffset`). Where
 * the API keeps no marker, the value that changed stands in (an invoice's balance). Invoices are
 * keyed by their number (`InvoiceNo`): the one id an order run, a payment's lines and the
 * invoice list all name.
 */

/** A part of a key: text without the separator. */
const part = (v: unknown): string => String(v ?? "").replaceAll("|", "/");

/** The key of `type` for the record `id`, at the change `marker` (omitted for a creation). */
export function eventKey(type: string, id: unknown, marker?: unknown): string {
  return marker === undefined ? `${type}|${part(id)}` : `${type}|${part(id)}|${part(marker)}`;
}

/** `record[name]` as a field the API answers (PascalCase names, read case-insensitively). */
export function field(record: Record<string, unknown>, name: string): unknown {
  if (name in record) return record[name];
  const lower = name.toLowerCase();
  const found = Object.keys(record).find((k) => k.toLowerCase() === lower);
  return found === undefined ? undefined : record[found];
}

/**
 * The key of a change to a customer or product as the API answered it: created once per id,
 * updated once per `LastChangedDateTimeOffset` (the request id of the write when the answer has
 * none, so two writes are never taken for one).
 */
export function recordKey(
  type: string,
  record: Record<string, unknown>,
  fallbackMarker: string,
): string {
  const id = field(record, "Id");
  if (type.endsWith(".created")) return eventKey(type, id);
  return eventKey(type, id, field(record, "LastChangedDateTimeOffset") ?? fallbackMarker);
}

/**
 * The key of an invoice's balance event (`outgoing_invoice.paid` or `.balance_changed`): its number
 * and `BalanceLastChangedDateTimeOffset`, or the balance itself where the answer has no such time.
 */
export function balanceKey(type: string, invoice: Record<string, unknown>): string {
  const marker =
    field(invoice, "BalanceLastChangedDateTimeOffset") ??
    `balance=${part(field(invoice, "Balance"))}`;
  return eventKey(type, field(invoice, "InvoiceNo"), marker);
}
