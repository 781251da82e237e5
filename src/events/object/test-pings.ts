/**
 * @module
 * The test event an endpoint is sent on request (Stripe's endpoint ping): a signed
 * `ledgergate.test` now, its one attempt in the delivery log (`attempts.type` names it, since its
 * event is in no log), never in the feed, never retried. An endpoint keeps its last
 * `TESTS_KEPT` tests' attempts: they are not purged with the log.
 */
import { newEventId } from "../ids";
import { TEST_EVENT_TYPE } from "../types";
import type { AttemptOutcome } from "./outbox";

/** Test attempts kept per endpoint, newest: enough to compare a receiver before and after. */
const TESTS_KEPT = 20;

/** The body of a test event to `endpoint` at `now` (epoch ms), and its id. */
export function testEvent(endpoint: string, now: number): { id: string; body: string } {
  const id = newEventId();
  const body = JSON.stringify({
    id,
    type: TEST_EVENT_TYPE,
    timestamp: new Date(now).toISOString(),
    data: {
      endpointId: endpoint,
      message: "A test event from ledgergate: your receiver got it. Nothing changed in the books.",
    },
  });
  return { id, body };
}

export class TestPings {
  constructor(private readonly sql: SqlStorage) {}

  /** Logs the one attempt of test `event` to `endpoint`, and forgets the endpoint's oldest tests. */
  log(event: string, endpoint: string, outcome: AttemptOutcome, at: number): void {
    this.sql.exec(
      `INSERT INTO attempts (event_id, endpoint_id, attempt, trigger, at, status, error, duration_ms, type)
       VALUES (?, ?, 1, 'test', ?, ?, ?, ?, ?)`,
      event,
      endpoint,
      at,
      outcome.status,
      outcome.error?.slice(0, 300) ?? null,
      Math.max(0, Math.round(outcome.durationMs)),
      TEST_EVENT_TYPE,
    );
    this.sql.exec(
      `DELETE FROM attempts WHERE endpoint_id = ? AND trigger = 'test' AND seq NOT IN
        (SELECT seq FROM attempts WHERE endpoint_id = ? AND trigger = 'test' ORDER BY seq DESC LIMIT ?)`,
      endpoint,
      endpoint,
      TESTS_KEPT,
    );
  }
}
