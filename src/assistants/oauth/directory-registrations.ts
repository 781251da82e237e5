/**
 * @module
 * The caps and lifetimes of OAuth dynamic client registration, one directory row per admitted
 * registration. Invariant: every stored client has a row until a person approves a grant for it; a
 * row never approved goes with its client record after `UNUSED_LIFETIME_MS`, or sooner when
 * `MAX_UNUSED` newer ones push it out. The numbers' reasons: docs/design/faces.md.
 */
import { z } from "zod";

/** The window of both paces, ms. */
export const WINDOW_MS = 10 * 60_000;
/** Registrations per window from one address: a developer retrying, not a script. */
export const PER_ADDRESS_PER_WINDOW = 10;
/** Registrations per window for the whole gateway: twenty addresses at their limit at once. */
export const PER_WINDOW = 200;
/** Never-approved registrations alive at once; a new one evicts the oldest. */
export const MAX_UNUSED = 1_000;
/** How long a never-approved registration lives, ms: its person approves within minutes. */
export const UNUSED_LIFETIME_MS = 6 * 3_600_000;

/** The table as of directory step 6 (`tenant/directory-schema.ts`: change it with a new step). */
export const OAUTH_REGISTRATIONS_TABLES = [
  `CREATE TABLE IF NOT EXISTS oauth_registrations (id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS oauth_registrations_expiry ON oauth_registrations (expires_at)",
];

/** Whether a registration may go ahead (its row's id, and whether it evicted an older one). */
export type Admission =
  | { ok: true; id: number; evicted: boolean }
  | { ok: false; reason: "address" | "pace"; retryAfterSeconds: number };

export const DueRegistration = z.object({ id: z.int(), client_id: z.string().nullable() });
export type DueRegistration = z.output<typeof DueRegistration>;

const Count = z.object({ n: z.int() });
const At = z.object({ at: z.int().nullable() });
const Id = z.object({ id: z.int() });
const UseRow = z.object({ id: z.int(), expires_at: z.int(), used_at: z.int().nullable() });

const ALIVE = "used_at IS NULL AND expires_at > ?";

export class OAuthRegistrations {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * Takes a row for a registration from `address` (null: only the gateway's pace), or says which
   * pace refuses it; at `MAX_UNUSED` the oldest unused row is marked due instead.
   */
  take(now: number, address: string | null): Admission {
    const since = now - WINDOW_MS;
    this.sql.exec("DELETE FROM oauth_registrations WHERE used_at IS NOT NULL AND at <= ?", since);
    // The address is needed only while its rows count for its pace.
    this.sql.exec(
      "UPDATE oauth_registrations SET address = NULL WHERE address IS NOT NULL AND at <= ?",
      since,
    );
    const seconds = (oldest: number | null) =>
      Math.max(1, Math.ceil(((oldest ?? now) + WINDOW_MS - now) / 1000));
    if (address !== null) {
      const q = "FROM oauth_registrations WHERE address = ? AND at > ?";
      if (this.#count(`SELECT COUNT(*) AS n ${q}`, address, since) >= PER_ADDRESS_PER_WINDOW)
        return {
          ok: false,
          reason: "address",
          retryAfterSeconds: seconds(this.#min(q, address, since)),
        };
    }
    const q = "FROM oauth_registrations WHERE at > ?";
    if (this.#count(`SELECT COUNT(*) AS n ${q}`, since) >= PER_WINDOW)
      return { ok: false, reason: "pace", retryAfterSeconds: seconds(this.#min(q, since)) };
    // Evicting, not refusing: a flood costs the oldest unused registration, not everyone's next.
    const evicted =
      this.#count(`SELECT COUNT(*) AS n FROM oauth_registrations WHERE ${ALIVE}`, now) >=
        MAX_UNUSED &&
      this.sql
        .exec(
          `UPDATE oauth_registrations SET expires_at = ? WHERE id = (SELECT id FROM
            oauth_registrations WHERE ${ALIVE} ORDER BY at, id LIMIT 1) RETURNING id`,
          now,
          now,
        )
        .toArray().length > 0;
    const row = this.sql
      .exec(
        "INSERT INTO oauth_registrations (at, expires_at, address) VALUES (?, ?, ?) RETURNING id",
        now,
        now + UNUSED_LIFETIME_MS,
        address,
      )
      .one();
    return { ok: true, id: Id.parse(row).id, evicted };
  }

  giveBack(id: number): void {
    this.sql.exec("DELETE FROM oauth_registrations WHERE id = ?", id);
  }

  /** Names the client stored for row `id`; true when it is due now (evicted meanwhile). */
  record(id: number, clientId: string, now: number): boolean {
    const updated = this.sql
      .exec(
        "UPDATE oauth_registrations SET client_id = ? WHERE id = ? RETURNING expires_at AS at",
        clientId,
        id,
      )
      .toArray()[0];
    if (updated !== undefined) return (At.parse(updated).at ?? now) <= now;
    this.sql.exec(
      "INSERT INTO oauth_registrations (at, expires_at, client_id) VALUES (?, ?, ?)",
      now,
      now,
      clientId,
    );
    return true;
  }

  /**
   * Marks `clientId`'s registration used: never deleted here again. False when it is at its end;
   * true for a client with no row (a metadata-document client, or one no longer tracked).
   */
  use(clientId: string, now: number): boolean {
    const raw = this.sql
      .exec("SELECT id, expires_at, used_at FROM oauth_registrations WHERE client_id = ?", clientId)
      .toArray()[0];
    if (raw === undefined) return true;
    const row = UseRow.parse(raw);
    if (row.used_at !== null) return true;
    if (row.expires_at <= now) return false;
    this.sql.exec("UPDATE oauth_registrations SET used_at = ? WHERE id = ?", now, row.id);
    return true;
  }

  /** Up to `limit` unused rows at their end, oldest end first: their clients are to be deleted. */
  due(now: number, limit: number): DueRegistration[] {
    return this.sql
      .exec(
        `SELECT id, client_id FROM oauth_registrations WHERE used_at IS NULL AND expires_at <= ?
          ORDER BY expires_at, id LIMIT ?`,
        now,
        limit,
      )
      .toArray()
      .map((r) => DueRegistration.parse(r));
  }

  /** Deletes the rows `ids` once their clients are deleted (a row used meanwhile stays). */
  forget(ids: readonly number[]): void {
    for (const id of ids)
      this.sql.exec("DELETE FROM oauth_registrations WHERE id = ? AND used_at IS NULL", id);
  }

  /** When the next unused row ends (epoch ms), or null with none: the directory's alarm. */
  dueAt(): number | null {
    const row = this.sql
      .exec("SELECT MIN(expires_at) AS at FROM oauth_registrations WHERE used_at IS NULL")
      .one();
    return At.parse(row).at;
  }

  #count(q: string, ...p: SqlStorageValue[]): number {
    return Count.parse(this.sql.exec(q, ...p).one()).n;
  }

  #min(from: string, ...p: SqlStorageValue[]): number | null {
    return At.parse(this.sql.exec(`SELECT MIN(at) AS at ${from}`, ...p).one()).at;
  }
}
