/**
 * @module
 * The state of each onboarding the gateway started, kept as its SHA-256 (it is a bearer secret in
 * a URL), and after use, so a replay is told from an unknown state. `take` is synchronous: of two
 * callbacks racing with one state, exactly one gets it.
 */
import { z } from "zod";
import { Environment } from "../kernel/config";

/** Frozen as step 3 of `tenant/directory-schema.ts`: change it with a new step. */
export const ONBOARDING_STATES_TABLE = `CREATE TABLE IF NOT EXISTS onboarding_states (hash TEXT PRIMARY KEY, environment TEXT NOT NULL,
  expires_at INTEGER NOT NULL, used_at INTEGER)`;

/** How long a used or expired state is remembered, ms: a day, for a clear "already used" answer. */
const RETENTION_MS = 24 * 3600 * 1000;

const StateRow = z.object({
  environment: Environment,
  expires_at: z.number(),
  used_at: z.number().nullable(),
});

export type TakenState =
  { ok: true; environment: Environment } | { ok: false; reason: "unknown" | "used" | "expired" };

export class OnboardingStates {
  constructor(private readonly sql: SqlStorage) {}

  /** Remembers a new state until `expiresAt`; forgets states long past theirs. */
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
