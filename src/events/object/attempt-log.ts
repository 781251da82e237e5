/**
 * @module
 * The delivery log's reads (table `attempts`, written by `outbox.ts` and `test-pings.ts`).
 */
import { z } from "zod";
import {
  AttemptTrigger as Trigger,
  DeliveryState,
  EventType,
  TEST_EVENT_TYPE,
  type AttemptView,
} from "../types";
import { rows } from "../../tenant/sql";

/** Attempts kept per endpoint in the delivery log's answers at most. */
export const MAX_ATTEMPTS_LISTED = 200;

const AttemptRow = z.object({
  event_id: z.string(),
  type: z.union([EventType, z.literal(TEST_EVENT_TYPE)]),
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
      `SELECT a.event_id, COALESCE(e.type, a.type) AS type, a.attempt, a.trigger, a.at, a.status,
         a.error, a.duration_ms, d.state
       FROM attempts a LEFT JOIN events e ON e.id = a.event_id
       LEFT JOIN deliveries d ON d.event_id = a.event_id AND d.endpoint_id = a.endpoint_id
       WHERE a.endpoint_id = ? AND (e.id IS NOT NULL OR a.type IS NOT NULL)
       ORDER BY a.seq DESC LIMIT ?`,
      endpoint,
      Math.min(limit, MAX_ATTEMPTS_LISTED),
    ).map((a) => {
      const ok = a.status !== null && a.status >= 200 && a.status < 300;
      return {
        eventId: a.event_id,
        type: a.type,
        attempt: a.attempt,
        trigger: a.trigger,
        at: new Date(a.at).toISOString(),
        ok,
        status: a.status,
        error: a.error,
        durationMs: a.duration_ms,
        // A test has no delivery: it is what its one attempt was.
        deliveryState: a.state ?? (a.trigger === "test" && ok ? "delivered" : "failed"),
      };
    });
  }
}
