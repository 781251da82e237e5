/**
 * @module
 * The de-duplication keys of events, derived by every announcer from the record as the API answers
 * it: the type, the record's id, and the change's marker the API keeps (else the value that
 * changed). One change is one event whoever sees it. See docs/design/events.md.
 */

const part = (v: unknown): string => String(v ?? "").replaceAll("|", "/");

/** The key of `type` for the record `id`, at the change `marker` (omitted for a creation). */
export function eventKey(type: string, id: unknown, marker?: unknown): string {
  return marker === undefined ? `${type}|${part(id)}` : `${type}|${part(id)}|${part(marker)}`;
}

/** `record[name]`, the name read case-insensitively. */
export function field(record: Record<string, unknown>, name: string): unknown {
  if (name in record) return record[name];
  const lower = name.toLowerCase();
  const found = Object.keys(record).find((k) => k.toLowerCase() === lower);
  return found === undefined ? undefined : record[found];
}

/**
 * The key of a change to a customer or product: created once per id, updated once per
 * `LastChangedDateTimeOffset` (else `fallbackMarker`, the write's request id).
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
 * The key of an invoice's balance event by its number: `paid` once an invoice, which an order run
 * knows without a read; a balance change at its stamp (else its balance).
 */
export function balanceKey(type: string, invoice: Record<string, unknown>): string {
  if (type === "outgoing_invoice.paid") return eventKey(type, field(invoice, "InvoiceNo"));
  const marker =
    field(invoice, "BalanceLastChangedDateTimeOffset") ??
    `balance=${part(field(invoice, "Balance"))}`;
  return eventKey(type, field(invoice, "InvoiceNo"), marker);
}
