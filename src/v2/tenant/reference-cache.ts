/**
 * @module
 * The tenant's cache of reference reads. A missed read is kept only if its resource's generation
 * has not moved since, so nothing read before a write is kept after it. See
 * docs/design/v2-passthrough.md.
 */
import { z } from "zod";
import { StoredHeaders, type StoredAnswer } from "../shaping/stored-answer";
import { deleteAll, jsonColumn, row } from "../../tenant/sql";

/** How long an entry is served, ms: bounds how long a change made outside the gateway is unseen. */
export const REFERENCE_TTL_MS = 5 * 60_000;
/** Entries kept per tenant at most: every reference list in a few projections and pages. */
export const MAX_REFERENCE_ENTRIES = 100;

/** Frozen as step 5 of `schema.ts`: change it with a new step. Times in epoch ms. */
export const REFERENCE_CACHE_TABLES = [
  `CREATE TABLE IF NOT EXISTS reference_cache (key TEXT PRIMARY KEY, resource TEXT NOT NULL, status INTEGER NOT NULL,
    headers TEXT NOT NULL, body BLOB, stored_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS reference_cache_resource ON reference_cache (resource)",
  "CREATE INDEX IF NOT EXISTS reference_cache_expiry ON reference_cache (expires_at)",
  "CREATE TABLE IF NOT EXISTS reference_generations (resource TEXT PRIMARY KEY, generation INTEGER NOT NULL)",
];

/** A cached answer and its age, or a miss with the generation a fresh read is kept under. */
export type ReferenceRead =
  | { kind: "hit"; answer: StoredAnswer; storedAt: number; expiresAt: number }
  | { kind: "miss"; generation: number };

const EntryRow = z.object({
  status: z.int(),
  headers: jsonColumn(StoredHeaders),
  body: z.instanceof(ArrayBuffer).nullable(),
  stored_at: z.int(),
  expires_at: z.int(),
});
const GenerationRow = z.object({ generation: z.int() });
/** The generation row that counts into every resource's (moved on by `clear`). */
const ALL = "*";
const DueRow = z.object({ due: z.int().nullable() });

export class ReferenceCache {
  constructor(private readonly sql: SqlStorage) {}

  /** The live entry for `key`; with `refresh` (`no-cache`), a miss whatever is kept. */
  read(key: string, resource: string, refresh: boolean, now: number): ReferenceRead {
    const e = refresh
      ? null
      : row(
          this.sql,
          EntryRow,
          "SELECT status, headers, body, stored_at, expires_at FROM reference_cache WHERE key = ? AND expires_at > ?",
          key,
          now,
        );
    if (e)
      return {
        kind: "hit",
        answer: { status: e.status, headers: e.headers, body: e.body },
        storedAt: e.stored_at,
        expiresAt: e.expires_at,
      };
    return { kind: "miss", generation: this.#generation(resource) };
  }

  /** Keeps `answer` unless `resource` was written since `generation`; null when not kept. */
  keep(
    key: string,
    resource: string,
    generation: number,
    answer: StoredAnswer,
    now: number,
  ): { storedAt: number; expiresAt: number } | null {
    if (this.#generation(resource) !== generation) return null;
    this.purge(now);
    this.sql.exec(
      "INSERT OR REPLACE INTO reference_cache (key, resource, status, headers, body, stored_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      key,
      resource,
      answer.status,
      JSON.stringify(answer.headers),
      answer.body,
      now,
      now + REFERENCE_TTL_MS,
    );
    this.sql.exec(
      "DELETE FROM reference_cache WHERE key IN (SELECT key FROM reference_cache ORDER BY stored_at DESC LIMIT -1 OFFSET ?)",
      MAX_REFERENCE_ENTRIES,
    );
    return { storedAt: now, expiresAt: now + REFERENCE_TTL_MS };
  }

  /** Forgets every entry of `resource` and moves its generation on. */
  forget(resource: string): void {
    this.sql.exec("DELETE FROM reference_cache WHERE resource = ?", resource);
    this.#bump(resource);
  }

  dueAt(): number | null {
    return row(this.sql, DueRow, "SELECT MIN(expires_at) AS due FROM reference_cache")?.due ?? null;
  }

  purge(now: number): void {
    this.sql.exec("DELETE FROM reference_cache WHERE expires_at <= ?", now);
  }

  /**
   * Forgets every entry and moves every generation on (the `*` row), so a read of the old books in
   * flight is not kept; answers how many there were.
   */
  clear(): number {
    const n = deleteAll(this.sql, "reference_cache");
    this.#bump(ALL);
    return n;
  }

  #bump(resource: string): void {
    this.sql.exec(
      "INSERT INTO reference_generations (resource, generation) VALUES (?, 1) ON CONFLICT(resource) DO UPDATE SET generation = generation + 1",
      resource,
    );
  }

  #generation(resource: string): number {
    return (
      row(
        this.sql,
        GenerationRow,
        "SELECT COALESCE(SUM(generation), 0) AS generation FROM reference_generations WHERE resource IN (?, ?)",
        resource,
        ALL,
      )?.generation ?? 0
    );
  }
}
