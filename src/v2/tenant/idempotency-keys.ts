/**
 * @module
 * The tenant's idempotency records, one row per key's SHA-256. A claim is one synchronous
 * read-and-insert, so exactly one concurrent call is first. See docs/design/v2-passthrough.md.
 */
import { z } from "zod";
import { StoredHeaders, type StoredAnswer } from "../shaping/stored-answer";
import { deleteAll, jsonColumn, row } from "../../tenant/sql";

/** How long a key's record is kept, ms: 24 h, as Stripe keeps them. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** The longest lease a claim can ask for, ms: the longest call deadline (120 s) and the margin. */
const MAX_LEASE_MS = 135_000;
/** Rows one purge deletes at most, so a claim or an alarm stays short. */
const PURGE_BATCH = 200;

/** Frozen as step 5 of `schema.ts`: change it with a new step. Times in epoch ms. */
export const IDEMPOTENCY_TABLES = [
  `CREATE TABLE IF NOT EXISTS idempotency_keys (key_hash TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, state TEXT NOT NULL,
    holder TEXT, lease_until INTEGER, expires_at INTEGER NOT NULL, status INTEGER, headers TEXT, body BLOB)`,
  "CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at)",
];

export type Claim =
  | { kind: "first"; holder: string }
  /** The outcome was unknown and the caller can check it (`recheck`): it now holds the row. */
  | { kind: "recheck"; holder: string }
  | { kind: "replay"; answer: StoredAnswer }
  | { kind: "in-flight" }
  | { kind: "unknown" }
  | { kind: "mismatch" };

export type Finish =
  { kind: "answer"; answer: StoredAnswer } | { kind: "unknown" } | { kind: "release" };

const Row = z.object({
  fingerprint: z.string(),
  state: z.enum(["in-flight", "done", "unknown"]),
  holder: z.string().nullable(),
  lease_until: z.int().nullable(),
  status: z.int().nullable(),
  headers: jsonColumn(StoredHeaders).nullable(),
  body: z.instanceof(ArrayBuffer).nullable(),
});
const SELECT =
  "SELECT fingerprint, state, holder, lease_until, status, headers, body FROM idempotency_keys WHERE key_hash = ?";
const DueRow = z.object({ due: z.int().nullable() });

export class IdempotencyKeys {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * Claims `keyHash` for a request with `fingerprint`, or says why not. Synchronous, so atomic.
   * `recheck`: the caller can find out an unknown outcome (it may then hold the row).
   */
  claim(
    keyHash: string,
    fingerprint: string,
    recheck: boolean,
    leaseUntil: number,
    now: number,
  ): Claim {
    this.purge(now);
    const lease = Math.min(leaseUntil, now + MAX_LEASE_MS);
    // An expired row the purge did not reach yet counts as absent, and is replaced.
    const r = row(this.sql, Row, `${SELECT} AND expires_at > ?`, keyHash, now);
    if (!r) {
      const holder = crypto.randomUUID();
      this.sql.exec(
        "INSERT OR REPLACE INTO idempotency_keys (key_hash, fingerprint, state, holder, lease_until, expires_at) VALUES (?, ?, 'in-flight', ?, ?, ?)",
        keyHash,
        fingerprint,
        holder,
        lease,
        now + IDEMPOTENCY_TTL_MS,
      );
      return { kind: "first", holder };
    }
    if (r.fingerprint !== fingerprint) return { kind: "mismatch" };
    if (r.state === "done")
      return {
        kind: "replay",
        answer: { status: r.status ?? 500, headers: r.headers ?? {}, body: r.body },
      };
    if (r.state === "in-flight" && (r.lease_until ?? 0) > now) return { kind: "in-flight" };
    // Unknown, or in flight past its lease (its holder is gone and may have sent the request).
    if (!recheck) {
      this.sql.exec(
        "UPDATE idempotency_keys SET state = 'unknown', holder = NULL, lease_until = NULL WHERE key_hash = ?",
        keyHash,
      );
      return { kind: "unknown" };
    }
    const holder = crypto.randomUUID();
    this.sql.exec(
      "UPDATE idempotency_keys SET state = 'in-flight', holder = ?, lease_until = ? WHERE key_hash = ?",
      holder,
      lease,
      keyHash,
    );
    return { kind: "recheck", holder };
  }

  /** Ends `holder`'s claim; false (nothing changes) when the claim is no longer its own. */
  finish(keyHash: string, holder: string, how: Finish): boolean {
    const mine = row(this.sql, Row, SELECT, keyHash);
    if (!mine || mine.state !== "in-flight" || mine.holder !== holder) return false;
    if (how.kind === "release")
      this.sql.exec("DELETE FROM idempotency_keys WHERE key_hash = ?", keyHash);
    else if (how.kind === "unknown")
      this.sql.exec(
        "UPDATE idempotency_keys SET state = 'unknown', holder = NULL, lease_until = NULL WHERE key_hash = ?",
        keyHash,
      );
    else {
      const a = how.answer;
      this.sql.exec(
        "UPDATE idempotency_keys SET state = 'done', holder = NULL, lease_until = NULL, status = ?, headers = ?, body = ? WHERE key_hash = ?",
        a.status,
        JSON.stringify(a.headers),
        a.body,
        keyHash,
      );
    }
    return true;
  }

  dueAt(): number | null {
    return (
      row(this.sql, DueRow, "SELECT MIN(expires_at) AS due FROM idempotency_keys")?.due ?? null
    );
  }

  /** Removes a batch of the records expired by `now`. */
  purge(now: number): void {
    this.sql.exec(
      "DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)",
      now,
      PURGE_BATCH,
    );
  }

  clear(): number {
    return deleteAll(this.sql, "idempotency_keys");
  }
}
