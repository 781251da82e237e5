/**
 * @module
 * The caps of OAuth dynamic client registration (RFC 7591, `POST /oauth/register`). Registration is
 * open to anyone by design (an assistant registers itself before any person is involved), and each
 * registration is a stored record (a client in `OAUTH_KV`), so both the pace and the number are
 * bounded, for the whole gateway, here in the one directory object: exact counts (KV can count
 * nothing), one row per admitted registration, nothing about the client.
 *
 * The limits are global, never per address: claude.ai and ChatGPT register every user's connection
 * from a few shared addresses, so a count per address would refuse their users first. What a flood
 * costs is bounded instead: at most `MAX_REGISTRATIONS` records live in any `CLIENT_REGISTRATION_TTL`
 * (the rows expire with the records they count), made at most `PER_WINDOW` per `WINDOW_MS`. Clients
 * with a client ID metadata document (claude.ai, ChatGPT, Claude Code) do not register at all, so a
 * flood that exhausts the cap leaves them connecting.
 *
 * `take` is one synchronous read and write in the object, which runs one event at a time: two
 * registrations racing for the last slot cannot both get it.
 */
import { z } from "zod";

/** Registrations admitted per window: a burst of people connecting at once, not a script. */
export const PER_WINDOW = 20;
/** The window, ms. */
export const WINDOW_MS = 10 * 60_000;
/** Registrations alive at once (each lives `lifetimeMs`, the records' own lifetime). */
export const MAX_REGISTRATIONS = 1_000;

/** The table as of directory step 6 (`directory/schema.ts`: change it with a new step). */
export const OAUTH_REGISTRATIONS_TABLES = [
  `CREATE TABLE IF NOT EXISTS oauth_registrations (id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS oauth_registrations_expiry ON oauth_registrations (expires_at)",
];

/** Whether a registration may go ahead: its slot's id, or why not and when to try again. */
export type Admission =
  { ok: true; id: number } | { ok: false; reason: "pace" | "full"; retryAfterSeconds: number };

const At = z.object({ at: z.int() });
const Count = z.object({ n: z.int() });
const Id = z.object({ id: z.int() });

export class OAuthRegistrations {
  constructor(private readonly sql: SqlStorage) {}

  /** Takes a slot for a registration whose record lives `lifetimeMs`, or says why not. */
  take(now: number, lifetimeMs: number): Admission {
    this.sql.exec("DELETE FROM oauth_registrations WHERE expires_at <= ?", now);
    const count = (q: string, ...p: SqlStorageValue[]) =>
      Count.parse(this.sql.exec(q, ...p).one()).n;
    const first = (q: string, ...p: SqlStorageValue[]) => {
      const r = this.sql.exec(q, ...p).toArray()[0];
      return r === undefined ? now : At.parse(r).at;
    };
    const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
    if (count("SELECT COUNT(*) AS n FROM oauth_registrations") >= MAX_REGISTRATIONS) {
      const next = first(
        "SELECT expires_at AS at FROM oauth_registrations ORDER BY expires_at LIMIT 1",
      );
      return { ok: false, reason: "full", retryAfterSeconds: seconds(next - now) };
    }
    const since = now - WINDOW_MS;
    if (count("SELECT COUNT(*) AS n FROM oauth_registrations WHERE at > ?", since) >= PER_WINDOW) {
      const oldest = first(
        "SELECT at FROM oauth_registrations WHERE at > ? ORDER BY at LIMIT 1",
        since,
      );
      return { ok: false, reason: "pace", retryAfterSeconds: seconds(oldest + WINDOW_MS - now) };
    }
    const inserted = this.sql
      .exec(
        "INSERT INTO oauth_registrations (at, expires_at) VALUES (?, ?) RETURNING id",
        now,
        now + lifetimeMs,
      )
      .one();
    return { ok: true, id: Id.parse(inserted).id };
  }

  /** Gives a slot back: the registration it was taken for was refused, so nothing was stored. */
  giveBack(id: number): void {
    this.sql.exec("DELETE FROM oauth_registrations WHERE id = ?", id);
  }
}
