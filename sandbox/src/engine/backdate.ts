/**
 * @module
 * Backdating a change (the control API's `POST /_sandbox/clients/{environment}/{clientId}/backdate`):
 * sets a record's change stamps to an earlier time, as a row the API commits late shows it (a long
 * transaction, a replica behind: its stamp is older than rows already read). A poller that reads
 * "changed after the last stamp I saw" with no lookback never sees such a row; the tests of the
 * gateway's watcher use this to prove its overlap. A voucher carries its ledger entries along, and
 * the balance stamps of the invoices they name (a payment committed late).
 */
import { stampBalances } from "./balance-stamps";
import type { Store } from "./store";

/** What to backdate: a stored record and which of its `…DateTimeOffset` fields. */
export interface Backdating {
  kind: string;
  id: string;
  fields: readonly string[];
  /** The stamp to set, ISO 8601. */
  to: string;
}

/**
 * Sets `b.fields` of the record to `b.to`; answers the record's stamps as they are now, or null
 * when there is no such record or it has no such field.
 */
export function backdate(store: Store, b: Backdating): Record<string, unknown> | null {
  const r = store.get(b.kind, b.id);
  if (!r || b.fields.some((f) => !(f in r.dto))) return null;
  const dto = { ...r.dto, ...Object.fromEntries(b.fields.map((f) => [f, b.to])) };
  store.put(b.kind, r.id, dto, { parent: r.parent, owner: r.owner });
  if (b.kind === "Voucher") {
    const entries = store.all("Posting", r.id);
    for (const p of entries)
      store.put(
        "Posting",
        p.id,
        { ...p.dto, CreatedDateTimeOffset: b.to, LastChangedDateTimeOffset: b.to },
        { parent: p.parent, owner: p.owner },
      );
    stampBalances(
      store,
      entries.map((p) => p.dto),
      b.to,
    );
  }
  return Object.fromEntries(b.fields.map((f) => [f, dto[f]]));
}
