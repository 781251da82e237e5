/**
 * @module
 * Named pull consumers (table `consumers`): each keeps the position of the last event handed to
 * it, so an integrator's reader resumes where it stopped without keeping a cursor of its own.
 * Reading moves the position past what it answered (at least once: `seek` goes back). A consumer
 * that read within the log's retention counts for the watcher as an endpoint does.
 */
import { z } from "zod";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import { jsonColumn, row, rows } from "../../tenant/sql";
import type { WebhookEvent } from "../types";
import { EVENT_RETENTION_MS, type EventLog } from "./log";

/** Consumers a tenant may name: a few readers, not a cursor per request. */
export const MAX_CONSUMERS = 20;

const Row = z.object({
  name: z.string(),
  position: z.int(),
  types: jsonColumn(z.array(z.string()).nullable()).nullable(),
  read_at: z.int().nullable(),
  created_at: z.int(),
});
type Row = z.output<typeof Row>;

/** A consumer as its reader sees it: where it stands, and when it last read. */
export interface ConsumerView {
  name: string;
  /** The last event handed to it (null: none yet, or the log no longer holds it). */
  position: string | null;
  readAt: string | null;
}

/** Where `seek` moves a consumer: after an event, to a time, or back to the log's start. */
export type SeekTo = { after: string } | { at: number } | { start: true };

export class Consumers {
  constructor(
    private readonly sql: SqlStorage,
    private readonly log: EventLog,
  ) {}

  /**
   * The events after `name`'s position (made at the log's start if new), and its position moved
   * past them; `changed` when the watcher must hear of it (a new reader, or other types).
   */
  read(
    name: string,
    types: string[] | null,
    limit: number,
    now: number,
  ): Outcome<{
    events: WebhookEvent[];
    hasMore: boolean;
    consumer: ConsumerView;
    changed: boolean;
  }> {
    const c = this.#row(name) ?? this.#create(name, 0, now);
    if (!c) return tooMany();
    const page = this.log.page(c.position, types, limit);
    const wasCounted = this.#counts(c, now);
    const position = page.last ?? c.position;
    this.sql.exec(
      "UPDATE consumers SET position = ?, types = ?, read_at = ?, updated_at = ? WHERE name = ?",
      position,
      JSON.stringify(types),
      now,
      now,
      name,
    );
    const changed = !wasCounted || JSON.stringify(c.types) !== JSON.stringify(types);
    return ok({
      events: page.events,
      hasMore: page.hasMore,
      consumer: this.#view({ ...c, position, read_at: now }),
      changed,
    });
  }

  /** Moves `name` (made if new) after an event, to a time or to the start. */
  seek(name: string, to: SeekTo, now: number): Outcome<ConsumerView> {
    let position = 0;
    if ("after" in to) {
      const seq = this.log.seqOf(to.after);
      if (seq === null)
        return fail("not-found", `No event ${to.after} in the log: events are kept 30 days.`);
      position = seq;
    } else if ("at" in to) position = this.log.seqBefore(to.at);
    const c = this.#row(name) ?? this.#create(name, position, now);
    if (!c) return tooMany();
    this.sql.exec(
      "UPDATE consumers SET position = ?, updated_at = ? WHERE name = ?",
      position,
      now,
      name,
    );
    return ok(this.#view({ ...c, position }));
  }

  /** What the consumers that read within the retention take: `null` in it for every type. */
  counted(now: number): (string[] | null)[] {
    return this.#all()
      .filter((c) => this.#counts(c, now))
      .map((c) => c.types);
  }

  /** When the first counted consumer stops counting (the watcher is told then), or null. */
  dueAt(now: number): number | null {
    const reads = this.#all()
      .filter((c) => this.#counts(c, now))
      .map((c) => (c.read_at ?? 0) + EVENT_RETENTION_MS);
    return reads.length === 0 ? null : Math.min(...reads);
  }

  clear(): number {
    const n = this.#all().length;
    this.sql.exec("DELETE FROM consumers");
    return n;
  }

  #counts(c: Row, now: number): boolean {
    return c.read_at !== null && c.read_at > now - EVENT_RETENTION_MS;
  }

  #view(c: Pick<Row, "name" | "position" | "read_at">): ConsumerView {
    const id = row(
      this.sql,
      z.object({ id: z.string() }),
      "SELECT id FROM events WHERE seq = ?",
      c.position,
    )?.id;
    return {
      name: c.name,
      position: id ?? null,
      readAt: c.read_at === null ? null : new Date(c.read_at).toISOString(),
    };
  }

  #row(name: string): Row | null {
    return row(
      this.sql,
      Row,
      "SELECT name, position, types, read_at, created_at FROM consumers WHERE name = ?",
      name,
    );
  }

  #all(): Row[] {
    return rows(this.sql, Row, "SELECT name, position, types, read_at, created_at FROM consumers");
  }

  #create(name: string, position: number, now: number): Row | null {
    if (this.#all().length >= MAX_CONSUMERS) return null;
    this.sql.exec(
      "INSERT INTO consumers (name, position, types, read_at, created_at, updated_at) VALUES (?, ?, NULL, NULL, ?, ?)",
      name,
      position,
      now,
      now,
    );
    return { name, position, types: null, read_at: null, created_at: now };
  }
}

const tooMany = () =>
  fail(
    "conflict",
    `A tenant has at most ${MAX_CONSUMERS} named consumers; reuse one, or read with after= instead.`,
  );
