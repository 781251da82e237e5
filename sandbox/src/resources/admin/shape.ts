/**
 * @module
 * A DTO with exactly the fields of its schema, in the spec's order, null where the sandbox has no
 * value: stored records may carry bookkeeping the API does not show.
 */
import type { Dto } from "../../engine/store";

export function shape(fields: readonly string[], values: Dto): Dto {
  return Object.fromEntries(fields.map((f) => [f, values[f] ?? null]));
}
