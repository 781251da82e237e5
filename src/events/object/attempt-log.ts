/**
 * @module
 * The delivery log's reads (table `attempts`, written by `outbox.ts`).
 */
import { z } from "zod";
import { AttemptTrigger as Trigger, DeliveryState, EventType, type AttemptView } from "../types";
import { rows } from "../../tenant/sql";

/** Attempts kept per endpoint in the delivery log's answers at most. */
export const MAX_ATTEMPTS_LISTED = 200;

const AttemptRow = z.object({
  event_id: z.string(),
  type: EventType,
  attempt: z.int(),
  trigger: Trigger,
  at: z.int(),
  status: z.int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.int(),
  state: DeliveryState.nullable(),
});

export class AttemptLog {
  constructor(private readonly sql: SqlStorage) {}

  /** The latest attempts to `endpoint`, newest first, with each delivery's state now. */
  list(endpoint: string, limit: number): AttemptView[] {
    return rows(
      this.sql,
      AttemptRow,
      `SELECT a.event_id, e.type, a.attempt, a.trigger, a.at, a.status, a.error, a.duration_ms, d.state
       FROM attempts a JOIN events e ON e.id = a.event_id
       LEFT JOIN deliveries d ON d.event_id = a.event_id AND d.endpoint_id = a.endpoint_id
       WHERE a.endpoint_id = ? ORDER BY a.seq DESC LIMIT ?`,
      endpoint,
      Math.min(limit, MAX_ATTEMPTS_LISTED),
    ).map((a) => ({
      eventId: a.event_id,
      type: a.type,
      attempt: a.attempt,
      trigger: a.trigger,
      at: new Date(a.at).toISOString(),
      ok: a.status !== null && a.status >= 200 && a.status < 300,
      status: a.status,
      error: a.error,
      durationMs: a.duration_ms,
      deliveryState: a.state ?? "failed",
    }));
  }
}
