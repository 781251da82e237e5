/**
 * @module
 * The tenant's event log (table `events`): every event once, under its key, in the order recorded:
 * the feed, and what redelivery and replay read. Personal data: docs/storage.md.
 */
import { z } from "zod";
import { newEventId } from "../ids";
import { EventData, EventType, type EventDraft, type WebhookEvent } from "../types";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import { jsonColumn, row, rows } from "../../tenant/sql";

/** How long an event is kept, ms: 30 days, as Stripe's `/v1/events`, and a day for a late alarm. */
export const EVENT_RETENTION_MS = 31 * 24 * 60 * 60 * 1000;
/** Events one purge deletes at most, so an alarm stays short. */
const PURGE_BATCH = 500;

const Row = z.object({
  seq: z.int(),
  id: z.string(),
  type: EventType,
  at: z.int(),
  data: jsonColumn(EventData),
});
const SEQ = z.object({ seq: z.int() });
const DUE = z.object({ due: z.int().nullable() });
const IdType = z.object({ id: z.string(), type: EventType });

/** An event just recorded, and the de-duplication key it was recorded under. */
export interface Recorded {
  id: string;
  type: string;
  key: string;
}

const asEvent = (r: z.output<typeof Row>): WebhookEvent => ({
  id: r.id,
  type: r.type,
  timestamp: new Date(r.at).toISOString(),
  data: r.data,
});

export class EventLog {
  constructor(private readonly sql: SqlStorage) {}

  /** Records each draft whose key the log does not hold yet; answers those it recorded. */
  append(drafts: readonly EventDraft[], now: number): Recorded[] {
    const recorded: Recorded[] = [];
    for (const d of drafts) {
      const key = d.key.slice(0, 500);
      // Read, then write, with no await between: the object runs one call at a time.
      if (row(this.sql, SEQ, "SELECT seq FROM events WHERE key = ?", key)) continue;
      const id = newEventId();
      this.sql.exec(
        "INSERT INTO events (id, type, at, recorded_at, key, data) VALUES (?, ?, ?, ?, ?, ?)",
        id,
        d.type,
        d.at,
        now,
        key,
        JSON.stringify(d.data),
      );
      recorded.push({ id, type: d.type, key: d.key });
    }
    return recorded;
  }

  /** One event, or null when the log does not hold it (never did, or it was purged). */
  get(id: string): WebhookEvent | null {
    const r = row(this.sql, Row, "SELECT seq, id, type, at, data FROM events WHERE id = ?", id);
    return r && asEvent(r);
  }

  /** The feed after `after`, oldest first; not-found when `after` is not in the log. */
  feed(
    after: string | null,
    types: readonly string[] | null,
    limit: number,
  ): Outcome<{ events: WebhookEvent[]; hasMore: boolean }> {
    let from = 0;
    if (after !== null) {
      const seq = this.seqOf(after);
      if (seq === null)
        return fail(
          "not-found",
          `No event ${after} in the log: events are kept 30 days. Read the feed from its start (no after) and deduplicate by id.`,
        );
      from = seq;
    }
    const { events, hasMore } = this.page(from, types, limit);
    return ok({ events, hasMore });
  }

  /** The position of event `id` in the log, or null when the log does not hold it. */
  seqOf(id: string): number | null {
    return row(this.sql, SEQ, "SELECT seq FROM events WHERE id = ?", id)?.seq ?? null;
  }

  /** The position of the last event recorded before `at`, 0 when none was. */
  seqBefore(at: number): number {
    return (
      row(
        this.sql,
        z.object({ seq: z.int().nullable() }),
        "SELECT MAX(seq) AS seq FROM events WHERE recorded_at < ?",
        at,
      )?.seq ?? 0
    );
  }

  /** Events after position `from` (of `types`; null or empty: all), and the last one's position. */
  page(
    from: number,
    types: readonly string[] | null,
    limit: number,
  ): { events: WebhookEvent[]; hasMore: boolean; last: number | null } {
    const wanted = types && types.length > 0 ? types : null;
    const found = rows(
      this.sql,
      Row,
      `SELECT seq, id, type, at, data FROM events WHERE seq > ?
       ${wanted ? `AND type IN (${wanted.map(() => "?").join(", ")})` : ""} ORDER BY seq LIMIT ?`,
      from,
      ...(wanted ?? []),
      limit + 1,
    );
    const shown = found.slice(0, limit);
    return {
      events: shown.map(asEvent),
      hasMore: found.length > limit,
      last: shown.at(-1)?.seq ?? null,
    };
  }

  /**
   * Events recorded in [since, until) of `types` (null: all), oldest first, at most `cap + 1` (one
   * more, so a caller can tell the window was larger).
   */
  window(
    since: number,
    until: number,
    types: readonly string[] | null,
    cap: number,
  ): { id: string; type: string }[] {
    const only = types && !types.includes("*") ? types : null;
    return rows(
      this.sql,
      IdType,
      `SELECT id, type FROM events WHERE recorded_at >= ? AND recorded_at < ?
       ${only ? `AND type IN (${only.map(() => "?").join(", ")})` : ""} ORDER BY seq LIMIT ?`,
      since,
      until,
      ...(only ?? []),
      cap + 1,
    );
  }

  dueAt(): number | null {
    const oldest = row(this.sql, DUE, "SELECT MIN(recorded_at) AS due FROM events")?.due ?? null;
    return oldest === null ? null : oldest + EVENT_RETENTION_MS;
  }

  /** Deletes events past their retention (a batch); answers the ids deleted. */
  purge(now: number): string[] {
    const old = rows(
      this.sql,
      z.object({ id: z.string() }),
      "SELECT id FROM events WHERE recorded_at <= ? ORDER BY seq LIMIT ?",
      now - EVENT_RETENTION_MS,
      PURGE_BATCH,
    ).map((r) => r.id);
    for (const id of old) this.sql.exec("DELETE FROM events WHERE id = ?", id);
    return old;
  }

  /** Deletes every event but the tenant's own (`tenant.*`); answers how many. */
  clearBooks(): number {
    const n =
      row(
        this.sql,
        z.object({ n: z.int() }),
        "SELECT COUNT(*) AS n FROM events WHERE type NOT LIKE 'tenant.%'",
      )?.n ?? 0;
    this.sql.exec("DELETE FROM events WHERE type NOT LIKE 'tenant.%'");
    return n;
  }

  clear(): number {
    const n = row(this.sql, z.object({ n: z.int() }), "SELECT COUNT(*) AS n FROM events")?.n ?? 0;
    this.sql.exec("DELETE FROM events");
    return n;
  }
}
