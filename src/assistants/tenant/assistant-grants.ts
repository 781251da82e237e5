/**
 * @module
 * The tenant's OAuth grants, one row per connection a person approved for an assistant: the
 * authority the MCP door asks on every request, since KV cannot refuse a revoked grant at once. A
 * grant is live while its row is here, under the current registration, before its end. A row holds
 * no credential. See docs/design/faces.md.
 */
import { z } from "zod";
import { Scope } from "../mcp/principal";
import { expiring, RetainedRows, camelRow } from "../../kernel/stored-rows";
import { deleteAll, row, rows } from "../../tenant/sql";

/** Live grants a tenant may hold: guards storage against a client re-authorizing in a loop. */
export const MAX_LIVE_GRANTS = 100;

/** How long `lastUsedAt` may lag, ms: not a write on every MCP request. */
export const LAST_USED_PRECISION_MS = 60_000;

/** `assistant_grants`, as of step 14 of `schema.ts` (change it with a new step). */
export const ASSISTANT_GRANT_TABLES = [
  `CREATE TABLE IF NOT EXISTS assistant_grants (grant_id TEXT PRIMARY KEY,
    registration TEXT NOT NULL, client_id TEXT NOT NULL, client_name TEXT NOT NULL,
    redirect_host TEXT NOT NULL, scope TEXT NOT NULL, approved_by TEXT NOT NULL,
    created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, last_used_at INTEGER)`,
  "CREATE INDEX IF NOT EXISTS assistant_grants_expiry ON assistant_grants (expires_at)",
];

/** A grant's id: `grant_` and 16 characters (96 random bits), made by `oauth/grants.ts`. */
export const GrantId = z.string().regex(/^grant_[A-Za-z0-9_-]{16}$/, "a grant id (grant_…)");

export const NewGrant = z.strictObject({
  id: GrantId,
  clientId: z.string().min(1).max(2000),
  clientName: z.string().min(1).max(200),
  redirectHost: z.string().min(1).max(255),
  scope: Scope,
  /** `key:` and a gateway key's hash prefix, or `operator`. */
  approvedBy: z.string().min(1).max(64),
  expiresAt: z.int(),
});
export type NewGrant = z.output<typeof NewGrant>;

const Stored = camelRow({
  grant_id: z.string(),
  registration: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  redirect_host: z.string(),
  scope: Scope,
  approved_by: z.string(),
  created_at: z.int(),
  expires_at: z.int(),
  last_used_at: z.int().nullable(),
}).transform(({ grantId, ...g }) => ({ id: grantId, ...g }));

export type StoredGrant = z.output<typeof Stored>;

/** A grant as the operator (console, admin API) sees it: never a token, times as ISO text. */
export const GrantView = z.strictObject({
  id: GrantId.meta({
    description: "The grant's id; tool calls under it are audited as grant:<id>.",
  }),
  clientId: z.string().meta({
    description:
      "The client's id: an https URL for a client that publishes a metadata document, a random id for one that registered itself.",
  }),
  clientName: z
    .string()
    .meta({ description: "The name the client gave itself (its own claim, not verified)." }),
  redirectHost: z.string().meta({ description: "The host the grant's tokens were sent to." }),
  scope: Scope,
  approvedBy: z
    .string()
    .meta({ description: "key:<first 8 hex of the gateway key's SHA-256>, or operator." }),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable().meta({ description: "Within a minute; null: never used." }),
});
export type GrantView = z.output<typeof GrantView>;

export function viewOf(g: StoredGrant): GrantView {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: g.id,
    clientId: g.clientId,
    clientName: g.clientName,
    redirectHost: g.redirectHost,
    scope: g.scope,
    approvedBy: g.approvedBy,
    createdAt: iso(g.createdAt),
    expiresAt: iso(g.expiresAt),
    lastUsedAt: g.lastUsedAt === null ? null : iso(g.lastUsedAt),
  };
}

export type Added = { ok: true } | { ok: false; reason: "full" };

/** The grants module of one tenant object: a grant's row goes at its end (`expires_at`). */
export class AssistantGrants extends RetainedRows {
  constructor(sql: SqlStorage) {
    super(sql, expiring("assistant_grants"));
  }

  /** Records a grant under `registration`, unless the tenant holds `MAX_LIVE_GRANTS` already. */
  add(grant: NewGrant, registration: string, now: number): Added {
    const g = NewGrant.parse(grant);
    this.purge(now);
    const live = row(
      this.sql,
      z.object({ n: z.int() }),
      "SELECT COUNT(*) AS n FROM assistant_grants",
    );
    if ((live?.n ?? 0) >= MAX_LIVE_GRANTS) return { ok: false, reason: "full" };
    this.sql.exec(
      `INSERT INTO assistant_grants (grant_id, registration, client_id, client_name, redirect_host,
        scope, approved_by, created_at, expires_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      g.id,
      registration,
      g.clientId,
      g.clientName,
      g.redirectHost,
      g.scope,
      g.approvedBy,
      now,
      g.expiresAt,
    );
    return { ok: true };
  }

  /** The grant `id`, if live at `now` under `registration`; null otherwise (never told apart). */
  live(id: string, registration: string, now: number): StoredGrant | null {
    const g = row(this.sql, Stored, "SELECT * FROM assistant_grants WHERE grant_id = ?", id);
    return g && g.registration === registration && g.expiresAt > now ? g : null;
  }

  /** Notes that `grant` was used at `now` (at most one write per `LAST_USED_PRECISION_MS`). */
  touch(grant: StoredGrant, now: number): void {
    if (grant.lastUsedAt !== null && now - grant.lastUsedAt < LAST_USED_PRECISION_MS) return;
    this.sql.exec("UPDATE assistant_grants SET last_used_at = ? WHERE grant_id = ?", now, grant.id);
  }

  list(now: number): StoredGrant[] {
    return rows(
      this.sql,
      Stored,
      "SELECT * FROM assistant_grants WHERE expires_at > ? ORDER BY created_at DESC, grant_id",
      now,
    );
  }

  /** Revokes a grant: its row goes, so the door refuses its tokens from the next request on. */
  revoke(id: string): boolean {
    return this.sql.exec("DELETE FROM assistant_grants WHERE grant_id = ?", id).rowsWritten > 0;
  }

  clear(): number {
    return deleteAll(this.sql, "assistant_grants");
  }
}
