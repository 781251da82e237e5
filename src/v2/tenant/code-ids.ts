/**
 * @module
 * The ids that codes named when the gateway last looked them up for this tenant (codes for ids,
 * `v2/shaping/code-refs.ts`): a department's Code, a customer's Number, an account's AccountNo,
 * filed by the lookup's kind and the code normalized (a number's digits, a code lowercased).
 *
 * Trusted for `CODE_IDS_FOR_MS`. A code can come to name another record (a department deleted and
 * made again under the same code, a product's code moved to another product); a write then lands
 * on the id the code named when it was looked up, at most that long ago, unless the change went
 * through the gateway: a write the gateway sends to a kind's list (`/Departments`, `/Customers/…`)
 * forgets every code of that kind, before and after the write. When the API refuses a write that
 * used remembered ids (400 or 404: the record is gone), the gateway forgets those ids, so the
 * caller's next try looks them up again. The rows go with the tenant, and a new client key
 * empties them (it may open another company's books, where the same codes name other records).
 */
import { z } from "zod";
import type { CodeId, CodeKey } from "../shaping/code-refs";
import { deleteAll, rows } from "../../tenant/sql";

/**
 * How long a looked-up id is used without asking again, ms: 10 minutes. A batch job (a hundred
 * orders naming the same departments and products) pays one lookup per code, while a code moved to
 * another record in the books is seen within minutes, not hours: a wrong reference in a posted
 * voucher costs far more than a lookup.
 */
export const CODE_IDS_FOR_MS = 10 * 60_000;

/**
 * The table as of layout 5 (frozen as step 5 of `schema.ts`: change it with a new step). `seen_at`:
 * when the API showed the id (epoch ms).
 */
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

  /**
   * Remembers `found` as seen at `now`; drops rows past `CODE_IDS_FOR_MS` on the way, so the table
   * holds minutes of lookups at most.
   */
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

  /**
   * Forgets every code of `kinds` (the gateway wrote to their list: a code there may now name
   * another record).
   */
  forgetKinds(kinds: readonly string[]): void {
    if (kinds.length > 0)
      this.sql.exec(
        "DELETE FROM code_ids WHERE kind IN (SELECT value FROM json_each(?))",
        JSON.stringify(kinds),
      );
  }

  /** Forgets every code (the tenant is removed, or its client key replaced); answers how many. */
  clear(): number {
    return deleteAll(this.sql, "code_ids");
  }
}
