/**
 * @module
 * The integration's grant, checked at most hourly in the watcher's share (table `grant_seen`): a
 * read of `GET /ClientIntegrationInformation` whose privileges or subscriptions differ from the last
 * seen records `tenant.privileges_changed`, then the new grant is kept. The first read only sets
 * the baseline. Recorded before it is kept, under a key of both grants: a crash between repeats the
 * key, not the event. See docs/events.md, "Connection health".
 */
import { z } from "zod";
import { grantOf, privilegesDraft, type Grant } from "../../connection-events";
import type { EventDraft } from "../../types";
import { subscribes } from "../../types";
import { jsonColumn, row } from "../../../tenant/sql";
import type { Page } from "../poll";

/** The event type the check serves: watched only when some endpoint or consumer takes it. */
export const GRANT_EVENT = "tenant.privileges_changed";
/** How often the grant is read at most, ms. */
export const GRANT_CHECK_MS = 60 * 60 * 1000;

export const watchesGrant = (types: readonly string[]): boolean => subscribes(types, GRANT_EVENT);

const GrantRow = z.object({
  granted: jsonColumn(
    z.object({
      validPrivileges: z.array(z.string()),
      invalidPrivileges: z.array(z.string()),
      subscriptions: z.array(z.string()),
    }),
  ),
  since: z.int(),
  checked_at: z.int(),
});

/** What a check needs from the world: one read, and the event log. */
export interface GrantIo {
  read(): Promise<{ kind: "json"; value: unknown } | Extract<Page, { kind: "stop" }>>;
  record(drafts: EventDraft[]): Promise<string[]>;
}

export class GrantCheck {
  constructor(private readonly sql: SqlStorage) {}

  due(now: number): boolean {
    const r = this.#row();
    return !r || r.checked_at + GRANT_CHECK_MS <= now;
  }

  /**
   * Reads the grant and records a change from the last seen; answers the calls made and, when the
   * read stopped, why (the cycle's outcome then).
   */
  async run(
    tenant: string,
    io: GrantIo,
    now: number,
  ): Promise<{ calls: number; stopped: Extract<Page, { kind: "stop" }> | null }> {
    const read = await io.read();
    const calls = read.kind === "stop" && read.why === "no-permit" ? 0 : 1;
    if (read.kind === "stop") return { calls, stopped: read };
    const grant = grantOf(read.value);
    if (!grant) return { calls, stopped: { kind: "stop", why: "failed" } };
    const before = this.#row();
    const draft = before && privilegesDraft(tenant, before.granted, before.since, grant, now);
    if (draft) await io.record([draft]);
    this.#keep(
      before && !draft ? before.granted : grant,
      before && !draft ? before.since : now,
      now,
    );
    return { calls, stopped: null };
  }

  /** Forgets the grant (other books, or nothing watched): the next read is a baseline. */
  clear(): void {
    this.sql.exec("DELETE FROM grant_seen");
  }

  #keep(grant: Grant, since: number, now: number): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO grant_seen (id, granted, since, checked_at) VALUES (1, ?, ?, ?)",
      JSON.stringify(grant),
      since,
      now,
    );
  }

  #row() {
    return row(
      this.sql,
      GrantRow,
      "SELECT granted, since, checked_at FROM grant_seen WHERE id = 1",
    );
  }
}
