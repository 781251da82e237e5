/**
 * @module
 * When an outgoing invoice's balance last changed (`BalanceLastChangedDateTimeOffset`), kept on the
 * invoice the way the API keeps it: set when the invoice is posted, moved by every posting that
 * names its number on the customer's ledger (a payment, a credit, a write-off) and by the reversal
 * of one. Computing it from the entries instead would move it backwards when a payment is
 * reversed (its entries leave the invoice), and `balanceLastChangedDateTimeOffsetGreaterThan`
 * would never show the invoice open again.
 */
import type { Dto, Store } from "./store";

/**
 * Stamps `at` as the balance change of every outgoing invoice one of `entries` (ledger postings)
 * names: entries of the customer ledger only (`Ledger`), by `InvoiceNo`, the invoice of the
 * entry's customer (`ContactId`).
 */
export function stampBalances(store: Store, entries: readonly Dto[], at: string): void {
  const wanted = new Set(
    entries
      .filter((e) => e.Ledger === "customer" && e.InvoiceNo !== null && e.InvoiceNo !== undefined)
      .map((e) => `${String(e.ContactId)}:${String(e.InvoiceNo)}`),
  );
  if (wanted.size === 0) return;
  for (const r of store.all("OutgoingInvoice")) {
    const d: Dto = r.dto;
    if (!wanted.has(`${String(d.CustomerId)}:${String(d.InvoiceNo)}`)) continue;
    store.put(
      "OutgoingInvoice",
      r.id,
      { ...d, BalanceLastChangedDateTimeOffset: at },
      { parent: r.parent, owner: r.owner },
    );
  }
}
