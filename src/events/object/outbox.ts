/**
 * @module
 * The outbox (table `deliveries`) and the delivery log (`attempts`). A delivery row is written in
 * the event's turn, before the queue is asked, so a lost send is swept by the alarm. Each (re)send
 * takes a new `round`, and a message of an older round is dropped: one delivery never has two
 * retry chains. See docs/design/events.md.
 */
import { z } from "zod";
import type { AttemptTrigger, DeliveryMessage, EndpointHeld } from "../types";
import { AttemptTrigger as Trigger, DeliveryState } from "../types";
import { row, rows } from "../../tenant/sql";

/** A delivery written and not marked queued within this is sent by the sweep, ms. */
export const SWEEP_GRACE_MS = 30_000;
/**
 * How often the sweep looks again at a delivery held behind an earlier one, ms. It is released
 * when that one settles (`release`); this only covers a release lost to a crash.
 */
export const HOLD_CHECK_MS = 60 * 60 * 1000;

const Row = z.object({
  event_id: z.string(),
  endpoint_id: z.string(),
  state: DeliveryState,
  round: z.int(),
  trigger: Trigger,
  attempts: z.int(),
  queued: z.int(),
  due_at: z.int(),
  /** The send time its endpoint's pace gave it (`Endpoints.reserve`), while it waits for it. */
  slot_at: z.int().nullable(),
  /** Since when it waits behind an earlier delivery to its ordered endpoint (`hold`). */
  held_at: z.int().nullable(),
});
export type DeliveryRow = z.output<typeof Row>;
const DUE = z.object({ due: z.int().nullable() });
const ROUND = z.object({ round: z.int() });
const COUNT = z.object({ n: z.int() });
const EVENT = z.object({ event_id: z.string() });
const HELD = z.object({ n: z.int(), since: z.int().nullable() });

/** What one attempt came to. */
export interface AttemptOutcome {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** A delivery's key and round, as its queue message names them. */
type Ref = Pick<DeliveryMessage, "event" | "endpoint" | "round">;

export class Outbox {
  /** `leaseMs()`: how long a queued delivery's attempt may go unreported before it goes again. */
  constructor(
    private readonly sql: SqlStorage,
    private readonly leaseMs: () => number,
  ) {}

  /** Opens a new round of (event, endpoint) from its first attempt; answers its message. */
  open(event: string, endpoint: string, trigger: AttemptTrigger, now: number): Ref {
    const r = row(
      this.sql,
      ROUND,
      `INSERT INTO deliveries (event_id, endpoint_id, state, round, trigger, attempts, queued, due_at, updated_at)
       VALUES (?, ?, 'pending', 1, ?, 0, 0, ?, ?)
       ON CONFLICT (event_id, endpoint_id) DO UPDATE SET state = 'pending', round = round + 1,
         trigger = excluded.trigger, attempts = 0, queued = 0, due_at = excluded.due_at,
         slot_at = NULL, held_at = NULL, updated_at = excluded.updated_at
       RETURNING round`,
      event,
      endpoint,
      trigger,
      now + SWEEP_GRACE_MS,
      now,
    );
    return { event, endpoint, round: r?.round ?? 1 };
  }

  /** How many deliveries to `endpoint` are pending: rounds open, whatever opened them. */
  openTo(endpoint: string): number {
    return (
      row(
        this.sql,
        COUNT,
        "SELECT COUNT(*) AS n FROM deliveries WHERE endpoint_id = ? AND state = 'pending'",
        endpoint,
      )?.n ?? 0
    );
  }

  /** The pending deliveries due for the sweep at `now`, at most `limit`. */
  due(now: number, limit: number): DeliveryRow[] {
    return rows(
      this.sql,
      Row,
      "SELECT * FROM deliveries WHERE state = 'pending' AND due_at <= ? ORDER BY due_at LIMIT ?",
      now,
      limit,
    );
  }

  /** Sends `d` again in a new round (its attempts so far still count). */
  resend(d: DeliveryRow, now: number): Ref {
    const round = d.round + 1;
    this.sql.exec(
      "UPDATE deliveries SET round = ?, queued = 0, due_at = ?, updated_at = ? WHERE event_id = ? AND endpoint_id = ?",
      round,
      now + SWEEP_GRACE_MS,
      now,
      d.event_id,
      d.endpoint_id,
    );
    return { event: d.event_id, endpoint: d.endpoint_id, round };
  }

  /**
   * Holds `d` until its pace's `slot`: its message is dropped, and the sweep sends it again then
   * (no queue retry spent waiting, so a busy endpoint's deliveries are never dead-lettered for it).
   */
  defer(d: DeliveryRow, slot: number): void {
    this.sql.exec(
      "UPDATE deliveries SET slot_at = ?, queued = 0, due_at = ? WHERE event_id = ? AND endpoint_id = ?",
      slot,
      slot,
      d.event_id,
      d.endpoint_id,
    );
  }

  /** `d` goes now: the slot it waited for is spent, and it is held no more. */
  spendSlot(d: DeliveryRow): void {
    if (d.slot_at !== null || d.held_at !== null)
      this.sql.exec(
        "UPDATE deliveries SET slot_at = NULL, held_at = NULL WHERE event_id = ? AND endpoint_id = ?",
        d.event_id,
        d.endpoint_id,
      );
  }

  /**
   * The event at the head of `endpoint`'s pending deliveries, in `timestamp` order (the log's
   * order among equal ones): the one an ordered endpoint sends next. Null when none is pending.
   */
  head(endpoint: string): string | null {
    return (
      row(
        this.sql,
        EVENT,
        `SELECT d.event_id FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE d.endpoint_id = ? AND d.state = 'pending' ORDER BY e.at, e.seq LIMIT 1`,
        endpoint,
      )?.event_id ?? null
    );
  }

  /**
   * Holds `d` behind the head of its ordered endpoint: its message is dropped, and `release`
   * makes it due when the head settles (the sweep looks again after `HOLD_CHECK_MS` regardless).
   */
  hold(d: DeliveryRow, now: number): void {
    this.sql.exec(
      "UPDATE deliveries SET held_at = COALESCE(held_at, ?), queued = 0, due_at = ? WHERE event_id = ? AND endpoint_id = ?",
      now,
      now + HOLD_CHECK_MS,
      d.event_id,
      d.endpoint_id,
    );
  }

  /** The head of `endpoint` settled: the next one, if held, is due now (answers whether). */
  release(endpoint: string, now: number): boolean {
    const next = this.head(endpoint);
    if (next === null) return false;
    this.sql.exec(
      "UPDATE deliveries SET due_at = ? WHERE event_id = ? AND endpoint_id = ? AND held_at IS NOT NULL",
      now,
      next,
      endpoint,
    );
    return true;
  }

  /** `endpoint` is ordered no more: every delivery held to it is due now. */
  releaseAll(endpoint: string, now: number): void {
    this.sql.exec(
      "UPDATE deliveries SET due_at = ?, held_at = NULL WHERE endpoint_id = ? AND state = 'pending' AND held_at IS NOT NULL",
      now,
      endpoint,
    );
  }

  /** What waits behind `endpoint`'s head, or null when nothing is held. */
  held(endpoint: string): EndpointHeld | null {
    const h = row(
      this.sql,
      HELD,
      "SELECT COUNT(*) AS n, MIN(held_at) AS since FROM deliveries WHERE endpoint_id = ? AND state = 'pending' AND held_at IS NOT NULL",
      endpoint,
    );
    const by = h && h.n > 0 && h.since !== null ? this.head(endpoint) : null;
    return h && by && h.since !== null
      ? { by, waiting: h.n, since: new Date(h.since).toISOString() }
      : null;
  }

  /** The queue took `sent`: each is due again only if its attempt is not reported in time. */
  queued(sent: readonly Ref[], now: number): void {
    for (const m of sent)
      this.sql.exec(
        "UPDATE deliveries SET queued = 1, due_at = ? WHERE event_id = ? AND endpoint_id = ? AND round = ?",
        now + this.leaseMs(),
        m.event,
        m.endpoint,
        m.round,
      );
  }

  /** The pending delivery `m` names, in its round; null when it is settled or overtaken. */
  current(m: Ref): DeliveryRow | null {
    return row(
      this.sql,
      Row,
      "SELECT * FROM deliveries WHERE event_id = ? AND endpoint_id = ? AND round = ? AND state = 'pending'",
      m.event,
      m.endpoint,
      m.round,
    );
  }

  /** Logs attempt `d.attempts + 1` of `d` and counts it. */
  attempted(d: DeliveryRow, outcome: AttemptOutcome, at: number): number {
    const attempt = d.attempts + 1;
    this.sql.exec(
      `INSERT INTO attempts (event_id, endpoint_id, attempt, trigger, at, status, error, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      d.event_id,
      d.endpoint_id,
      attempt,
      d.trigger,
      at,
      outcome.status,
      outcome.error?.slice(0, 300) ?? null,
      Math.max(0, Math.round(outcome.durationMs)),
    );
    this.sql.exec(
      "UPDATE deliveries SET attempts = ?, updated_at = ? WHERE event_id = ? AND endpoint_id = ?",
      attempt,
      at,
      d.event_id,
      d.endpoint_id,
    );
    return attempt;
  }

  settle(d: DeliveryRow, state: "delivered" | "failed", now: number): void {
    this.sql.exec(
      "UPDATE deliveries SET state = ?, updated_at = ? WHERE event_id = ? AND endpoint_id = ?",
      state,
      now,
      d.event_id,
      d.endpoint_id,
    );
  }

  /** `d` waits for its next attempt until `at` (the queue holds its message until then). */
  waitUntil(d: DeliveryRow, at: number): void {
    this.sql.exec(
      "UPDATE deliveries SET due_at = ? WHERE event_id = ? AND endpoint_id = ?",
      at + this.leaseMs(),
      d.event_id,
      d.endpoint_id,
    );
  }

  /** Every pending delivery to `endpoint` fails (it was disabled): replay picks them up later. */
  failAll(endpoint: string, now: number): void {
    this.sql.exec(
      "UPDATE deliveries SET state = 'failed', updated_at = ? WHERE endpoint_id = ? AND state = 'pending'",
      now,
      endpoint,
    );
  }

  /** When the sweep is next due, or null when nothing is pending. */
  dueAt(): number | null {
    return (
      row(this.sql, DUE, "SELECT MIN(due_at) AS due FROM deliveries WHERE state = 'pending'")
        ?.due ?? null
    );
  }

  /** Drops the deliveries and attempts of `endpoint` (deleted). */
  dropEndpoint(endpoint: string): void {
    this.sql.exec("DELETE FROM deliveries WHERE endpoint_id = ?", endpoint);
    this.sql.exec("DELETE FROM attempts WHERE endpoint_id = ?", endpoint);
  }

  /** Drops the deliveries and attempts of `events` (purged from the log). */
  dropEvents(events: readonly string[]): void {
    for (const id of events) {
      this.sql.exec("DELETE FROM deliveries WHERE event_id = ?", id);
      this.sql.exec("DELETE FROM attempts WHERE event_id = ?", id);
    }
  }

  /** Drops the deliveries and attempts whose event the log no longer holds (test events too). */
  dropOrphans(): void {
    this.sql.exec("DELETE FROM deliveries WHERE event_id NOT IN (SELECT id FROM events)");
    this.sql.exec("DELETE FROM attempts WHERE event_id NOT IN (SELECT id FROM events)");
  }

  clear(): void {
    this.sql.exec("DELETE FROM deliveries");
    this.sql.exec("DELETE FROM attempts");
  }
}
