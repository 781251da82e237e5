/**
 * @module
 * An event's `data`: the record whole under `MAX_DATA_BYTES` (Standard Webhooks' 20 kB), else its
 * id and the changed fields, with their values if they fit.
 */
import type { EventData } from "./types";
import { field } from "./keys";

export const MAX_DATA_BYTES = 20_000;

const size = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

/**
 * The data of an event about `record`, `changed` the fields the change touched.
 *
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
