/**
 * @module
 * The `state` of each onboarding the gateway started (`onboarding/start.ts`), so the callback
 * can tell its own redirects from forged or replayed ones. Only the SHA-256 of a state is kept: the
 * state is a bearer secret in a URL. A row stays after use (until `RETENTION_MS` past its expiry)
 * so a replay is told apart from an unknown state.
 *
 * `take` is one synchronous read and write in the object, which runs one event at a time: of two
 * callbacks racing with the same state, exactly one gets it.
 */
import { z } from "zod";
import { Environment } from "../kernel/config";

/**
 * The table as of layout 3 (frozen as step 3 of `tenant/directory-schema.ts`: change it with a new
 * step).
 */
export const ONBOARDING_STATES_TABLE = `CREATE TABLE IF NOT EXISTS onboarding_states (hash TEXT PRIMARY KEY, environment TEXT NOT NULL,
  expires_at INTEGER NOT NULL, used_at INTEGER)`;

/** How long a used or expired state is remembered, ms: a day, for a clear "already used" answer. */
const RETENTION_MS = 24 * 3600 * 1000;

const StateRow = z.object({
  environment: Environment,
  expires_at: z.number(),
  used_at: z.number().nullable(),
});

/** What taking a state found. */
export type TakenState =
  { ok: true; environment: Environment } | { ok: false; reason: "unknown" | "used" | "expired" };

export class OnboardingStates {
  constructor(private readonly sql: SqlStorage) {}

  /** Remembers a new state until `expiresAt` (epoch ms); forgets states long past theirs. */
  add(hash: string, environment: Environment, expiresAt: number, now: number): void {
    this.sql.exec("DELETE FROM onboarding_states WHERE expires_at < ?", now - RETENTION_MS);
    this.sql.exec(
      "INSERT INTO onboarding_states (hash, environment, expires_at) VALUES (?, ?, ?)",
      hash,
      environment,
      expiresAt,
    );
  }

  /** Uses a state up: its environment the first time, before it expires; why not otherwise. */
  take(hash: string, now: number): TakenState {
    const raw = this.sql
      .exec("SELECT environment, expires_at, used_at FROM onboarding_states WHERE hash = ?", hash)
      .toArray()[0];
    const row = raw === undefined ? null : StateRow.parse(raw);
    if (!row) return { ok: false, reason: "unknown" };
    if (row.used_at !== null) return { ok: false, reason: "used" };
    // An expired state is used up too: it can never become valid again.
    this.sql.exec("UPDATE onboarding_states SET used_at = ? WHERE hash = ?", now, hash);
    return row.expires_at <= now
      ? { ok: false, reason: "expired" }
      : { ok: true, environment: row.environment };
  }
}
