/**
 * @module
 * The ids that codes named when the gateway last looked them up for this tenant, by the lookup's
 * kind and the normalized code. Trusted for `CODE_IDS_FOR_MS`; a new client key empties them (other
 * books, other records). See docs/design/v2-passthrough.md.
 */
import { z } from "zod";
import type { CodeId, CodeKey } from "../shaping/code-refs";
import { deleteAll, rows } from "../../tenant/sql";

/** How long a looked-up id is used without asking again, ms: a wrong id costs more than lookups. */
export const CODE_IDS_FOR_MS = 10 * 60_000;

/** Frozen as step 5 of `schema.ts`: change it with a new step. `seen_at`: epoch ms. */
export const CODE_ID_TABLES = [
  "CREATE TABLE IF NOT EXISTS code_ids (kind TEXT NOT NULL, code TEXT NOT NULL, id INTEGER NOT NULL, seen_at INTEGER NOT NULL, PRIMARY KEY (kind, code))",
  "CREATE INDEX IF NOT EXISTS code_ids_seen ON code_ids (seen_at)",
];

const CodeIdRow = z.object({ kind: z.string(), code: z.string(), id: z.int() });

/** Pairs as one bound JSON array, never spliced into the query. */
const pairs = (keys: readonly CodeKey[]) => JSON.stringify(keys.map((k) => [k.kind, k.code]));

export class CodeIds {
  constructor(private readonly sql: SqlStorage) {}

  /** The ids of those of `keys` seen within `CODE_IDS_FOR_MS` of `now`. */
  recall(keys: readonly CodeKey[], now: number): CodeId[] {
    if (keys.length === 0) return [];
    return rows(
      this.sql,
      CodeIdRow,
      "SELECT kind, code, id FROM code_ids WHERE seen_at > ? AND (kind, code) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))",
      now - CODE_IDS_FOR_MS,
      pairs(keys),
    );
  }

  /** Remembers `found` as seen at `now`, dropping rows past `CODE_IDS_FOR_MS` on the way. */
  remember(found: readonly CodeId[], now: number): void {
    this.sql.exec("DELETE FROM code_ids WHERE seen_at <= ?", now - CODE_IDS_FOR_MS);
    for (const f of found)
      this.sql.exec(
        "INSERT OR REPLACE INTO code_ids (kind, code, id, seen_at) VALUES (?, ?, ?, ?)",
        f.kind,
        f.code,
        f.id,
        now,
      );
  }

  /** Forgets `keys` (the API refused a write that used them). */
  forget(keys: readonly CodeKey[]): void {
    if (keys.length > 0)
      this.sql.exec(
        "DELETE FROM code_ids WHERE (kind, code) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))",
        pairs(keys),
      );
  }

  /** Forgets every code of `kinds` (the gateway wrote to their list). */
  forgetKinds(kinds: readonly string[]): void {
    if (kinds.length > 0)
      this.sql.exec(
        "DELETE FROM code_ids WHERE kind IN (SELECT value FROM json_each(?))",
        JSON.stringify(kinds),
      );
  }

  /** Forgets every code; answers how many. */
  clear(): number {
    return deleteAll(this.sql, "code_ids");
  }
}
