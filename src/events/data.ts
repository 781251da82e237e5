/**
 * @module
 * An event's `data`: the record as the API answered it when its JSON is under `MAX_DATA_BYTES`,
 * otherwise its id, the names of the fields the change touched (`changedFields`) and those fields'
 * values (only their names, if even they are too large). Standard Webhooks asks for payloads under
 * 20 kB; a receiver that needs the rest reads the record by its id.
 */
import type { EventData } from "./types";
import { field } from "./keys";

/** The largest `data` sent whole, bytes of UTF-8 JSON: Standard Webhooks' "under 20 kB". */
export const MAX_DATA_BYTES = 20_000;

const size = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

/**
 * The data of an event about `record`.
 *
 * @param record the record as the API answered it
 * @param changed the fields the change touched (a create's: the fields sent; a patch's: its paths)
 * @returns `record` itself, or its thin form when it is too large
 * @example eventData({ Id: 7, Name: "Fjord AS" }, ["Name"]) // the record, whole
 */
export function eventData(record: Record<string, unknown>, changed: readonly string[]): EventData {
  if (size(record) < MAX_DATA_BYTES) return record;
  const names = [...new Set(changed)].slice(0, 100);
  const thin: EventData = { Id: field(record, "Id") ?? null, changedFields: names };
  const values = Object.fromEntries(names.map((n) => [n, field(record, n) ?? null]));
  const full = { ...values, ...thin };
  return size(full) < MAX_DATA_BYTES ? full : thin;
}
