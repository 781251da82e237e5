/**
 * @module
 * A tenant's gateway keys, stored only as SHA-256 hashes (random and long: a fast hash fits).
 * Rotation gives the others a retirement time, so callers can roll the new key out first.
 */
import { z } from "zod";
import type { Environment } from "../kernel/config";
import { sha256Hex, timingSafeEqual } from "../kernel/crypto";
import { newGatewayKey } from "./key-format";
import { rows } from "./sql";

/** The table as of layout 5 (frozen as step 5 of `schema.ts`: change it with a new step). */
export const GATEWAY_KEY_TABLES = [
  "CREATE TABLE IF NOT EXISTS gateway_keys (hash TEXT PRIMARY KEY, created_at TEXT NOT NULL, retires_at INTEGER)",
];

const KeyRow = z.object({
  hash: z.string(),
  created_at: z.string(),
  retires_at: z.int().nullable(),
});

export interface MatchedKey {
  retiresAt: number | null;
}

export class GatewayKeys {
  /** Keys checked since the object woke: the isolates' access caches keep this low. */
  checks = 0;

  constructor(private readonly sql: SqlStorage) {}

  /** A first key for a new registration; any earlier keys are gone. */
  async issue(environment: Environment, client: string, now: number): Promise<string> {
    const key = newGatewayKey(environment, client);
    const hash = await sha256Hex(key);
    this.sql.exec("DELETE FROM gateway_keys");
    this.sql.exec(
      "INSERT INTO gateway_keys (hash, created_at, retires_at) VALUES (?, ?, NULL)",
      hash,
      new Date(now).toISOString(),
    );
    return key;
  }

  /** A new key; every other live key retires at `retiresAt` (or earlier, if it already was to). */
  async rotate(
    environment: Environment,
    client: string,
    now: number,
    retiresAt: number,
  ): Promise<string> {
    const key = newGatewayKey(environment, client);
    const hash = await sha256Hex(key);
    this.sql.exec("DELETE FROM gateway_keys WHERE retires_at IS NOT NULL AND retires_at <= ?", now);
    this.sql.exec(
      "UPDATE gateway_keys SET retires_at = MIN(COALESCE(retires_at, ?), ?)",
      retiresAt,
      retiresAt,
    );
    this.sql.exec(
      "INSERT INTO gateway_keys (hash, created_at, retires_at) VALUES (?, ?, NULL)",
      hash,
      new Date(now).toISOString(),
    );
    return key;
  }

  async authentic(key: string, now: number): Promise<boolean> {
    return (await this.check(key, now)) !== null;
  }

  /** The live key `key` is, or null; compared with all without stopping: timing tells nothing. */
  async check(key: string, now: number): Promise<MatchedKey | null> {
    this.checks++;
    const hash = await sha256Hex(key);
    let found: MatchedKey | null = null;
    for (const k of this.#live(now))
      if (timingSafeEqual(k.hash, hash)) found = { retiresAt: k.retires_at };
    return found;
  }

  /** The live keys as an operator sees them: when each was made and when it retires. */
  list(now: number): { createdAt: string; retiresAt: string | null }[] {
    return this.#live(now).map((k) => ({
      createdAt: k.created_at,
      retiresAt: k.retires_at === null ? null : new Date(k.retires_at).toISOString(),
    }));
  }

  clear(): void {
    this.sql.exec("DELETE FROM gateway_keys");
  }

  #live(now: number) {
    return rows(
      this.sql,
      KeyRow,
      "SELECT hash, created_at, retires_at FROM gateway_keys WHERE retires_at IS NULL OR retires_at > ? ORDER BY created_at DESC",
      now,
    );
  }
}
