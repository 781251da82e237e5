/** @module The token keeper's one stored row: read through zod, written whole. */
import { z } from "zod";
import { Sealed } from "../../kernel/crypto";
import { jsonColumn, row } from "../../tenant/sql";

/** The table as of layout 5 (frozen as step 5 of `schema.ts`: change it with a new step). */
export const TOKEN_TABLES = [
  `CREATE TABLE IF NOT EXISTS token_state (id INTEGER PRIMARY KEY CHECK (id = 1), sealed TEXT, issued_at INTEGER, expires_at INTEGER,
    rejected_reason TEXT, failures INTEGER NOT NULL, backoff_until INTEGER NOT NULL, last_error TEXT, tokens_issued INTEGER NOT NULL, last_used_at INTEGER NOT NULL)`,
];

const StateRow = z.object({
  sealed: jsonColumn(Sealed).nullable(),
  issued_at: z.int().nullable(),
  expires_at: z.int().nullable(),
  rejected_reason: z.string().nullable(),
  failures: z.int(),
  backoff_until: z.int(),
  last_error: z.string().nullable(),
  tokens_issued: z.int(),
  last_used_at: z.int(),
});

export type TokenState = Omit<z.output<typeof StateRow>, "sealed"> & { sealed: Sealed | null };

export function readTokenState(sql: SqlStorage): TokenState | null {
  return row(sql, StateRow, "SELECT * FROM token_state WHERE id = 1");
}

export function writeTokenState(sql: SqlStorage, s: TokenState): void {
  sql.exec(
    `INSERT OR REPLACE INTO token_state (id, sealed, issued_at, expires_at, rejected_reason, failures, backoff_until, last_error, tokens_issued, last_used_at)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    s.sealed && JSON.stringify(s.sealed),
    s.issued_at,
    s.expires_at,
    s.rejected_reason,
    s.failures,
    s.backoff_until,
    s.last_error,
    s.tokens_issued,
    s.last_used_at,
  );
}
