/**
 * @module
 * The tenant's connection to the API as its token keeper finds it: each loss (the API refused the
 * client key, so the client removed the integration) and each recovery is written here in the
 * keeper's turn, then told to the events object by the stored work. A tell lost to a failure or a
 * crash is made on a later alarm; the event's key makes a second tell record nothing.
 */
import { z } from "zod";
import { connectionDraft } from "../../events/connection-events";
import type { Bindings } from "../../kernel/config";
import { log } from "../../kernel/log";
import { eventsStub } from "../../kernel/stubs";
import type { RunOwner } from "../../orders/tenant/order-desk";
import { row, rows } from "../../tenant/sql";
import type { StoredWork } from "../../tenant/stored-work";

/** The table as of layout 20 (frozen as step 20 of `tenant/schema.ts`). */
export const CONNECTION_TABLES = [
  `CREATE TABLE IF NOT EXISTS connection_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL, at INTEGER NOT NULL, reason TEXT, told_at INTEGER)`,
];

/** Changes kept once told: the last few, for the console; the event log keeps them all. */
const KEPT = 20;
/** How long a failed tell waits before the next, ms. */
const RETRY_MS = 60_000;

const Row = z.object({
  seq: z.int(),
  kind: z.enum(["lost", "restored"]),
  at: z.int(),
  reason: z.string().nullable(),
  told_at: z.int().nullable(),
});
type Row = z.output<typeof Row>;
const DUE = z.object({ due: z.int().nullable() });

/** The connection as the operator sees it. */
export const ConnectionView = z.strictObject({
  state: z.enum(["connected", "lost"]).meta({
    description: "lost: the API refused the client key; a new one must be onboarded.",
  }),
  lostAt: z.string().nullable().meta({ description: "When it was last lost." }),
  reason: z.string().nullable(),
  restoredAt: z.string().nullable().meta({ description: "When a key last worked again after." }),
});
export type ConnectionView = z.output<typeof ConnectionView>;

const iso = (t: number | undefined) => (t === undefined ? null : new Date(t).toISOString());

export class Connection implements StoredWork {
  #retryAt = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly env: () => Bindings,
  ) {}

  /** The API refused the tenant's client key at `now` (the keeper calls this once a loss). */
  lost(reason: string, now: number): void {
    this.sql.exec(
      "INSERT INTO connection_changes (kind, at, reason) VALUES ('lost', ?, ?)",
      now,
      reason.slice(0, 500),
    );
  }

  /** A client key worked again at `now` after a loss. */
  restored(now: number): void {
    this.sql.exec("INSERT INTO connection_changes (kind, at) VALUES ('restored', ?)", now);
  }

  view(): ConnectionView {
    const all = this.#rows();
    const lost = all.findLast((r) => r.kind === "lost");
    const restored = all.findLast((r) => r.kind === "restored");
    return {
      state: all.at(-1)?.kind === "lost" ? "lost" : "connected",
      lostAt: iso(lost?.at),
      reason: lost?.reason ?? null,
      restoredAt: iso(restored?.at),
    };
  }

  dueAt(): number | null {
    const due = row(
      this.sql,
      DUE,
      "SELECT MIN(at) AS due FROM connection_changes WHERE told_at IS NULL",
    )?.due;
    return due === null || due === undefined ? null : Math.max(due, this.#retryAt);
  }

  /** Tells the events object every change not told yet, oldest first. Safe to run twice. */
  async runDue(now: number, owner: RunOwner): Promise<void> {
    const all = this.#rows();
    const untold = all.filter((r) => r.told_at === null);
    if (untold.length === 0 || now < this.#retryAt) return;
    const drafts = untold.map((r) =>
      r.kind === "lost"
        ? connectionDraft(owner.tenant, { kind: "lost", reason: r.reason ?? "", at: r.at })
        : connectionDraft(owner.tenant, {
            kind: "restored",
            lostAt: all.findLast((l) => l.kind === "lost" && l.seq < r.seq)?.at ?? null,
            at: r.at,
          }),
    );
    try {
      const told = await eventsStub(this.env(), owner.tenant).record(drafts);
      if (!told.ok) throw new Error(told.error.detail);
    } catch (e) {
      this.#retryAt = now + RETRY_MS;
      log.warn("connection-tell-failed", { tenant: owner.tenant, error: String(e) });
      return;
    }
    const last = untold.at(-1)?.seq ?? 0;
    this.sql.exec(
      "UPDATE connection_changes SET told_at = ? WHERE told_at IS NULL AND seq <= ?",
      now,
      last,
    );
    this.sql.exec(
      "DELETE FROM connection_changes WHERE told_at IS NOT NULL AND seq <= (SELECT MAX(seq) FROM connection_changes) - ?",
      KEPT,
    );
  }

  clear(): void {
    this.sql.exec("DELETE FROM connection_changes");
  }

  #rows(): Row[] {
    return rows(this.sql, Row, "SELECT * FROM connection_changes ORDER BY seq");
  }
}
