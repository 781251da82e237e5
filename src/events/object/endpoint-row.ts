/**
 * @module
 * A row of the `endpoints` table, parsed, and the endpoint as its owner sees it.
 */
import { z } from "zod";
import { Sealed } from "../../kernel/crypto";
import { EndpointTypes, type EndpointHeld, type EndpointView } from "../types";
import { jsonColumn } from "../../tenant/sql";

export const EndpointRow = z.object({
  id: z.string(),
  url: z.string(),
  types: jsonColumn(EndpointTypes),
  description: z.string().nullable(),
  secret: jsonColumn(Sealed),
  previous_secret: jsonColumn(Sealed).nullable(),
  previous_until: z.int().nullable(),
  state: z.enum(["enabled", "disabled"]),
  disabled_reason: z.string().nullable(),
  disabled_at: z.int().nullable(),
  failing_since: z.int().nullable(),
  max_per_second: z.int().nullable(),
  next_slot_at: z.int().nullable(),
  ordered: z.int().nullable(),
  created_at: z.int(),
  updated_at: z.int(),
});
export type EndpointRow = z.output<typeof EndpointRow>;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** The endpoint as its owner and the operator see it: never a secret. `held`: the outbox's. */
export function view(r: EndpointRow, held: EndpointHeld | null = null): EndpointView {
  return {
    id: r.id,
    url: r.url,
    types: r.types,
    description: r.description,
    maxPerSecond: r.max_per_second,
    ordered: r.ordered === 1,
    held,
    state: r.state,
    disabledReason: r.disabled_reason,
    disabledAt: iso(r.disabled_at),
    failingSince: iso(r.failing_since),
    previousSecretExpiresAt: r.previous_secret ? iso(r.previous_until) : null,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}
