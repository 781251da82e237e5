/**
 * @module
 * Writes an assistant prepared and has not yet confirmed, filed under the handle's SHA-256. A
 * handle is a name, not a capability: honoured only for its principal, under its registration. A
 * confirmed row lives as long as its write's idempotency record, so a repeated confirm is not
 * written twice; waiting rows are bounded here, since the budget does not pace preparing. See
 * docs/design/faces.md.
 */
import { z } from "zod";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import { IDEMPOTENCY_TTL_MS } from "../../v2/tenant/idempotency-keys";
import { expiring, RetainedRows } from "../../kernel/stored-rows";
import { deleteAll, row } from "../../tenant/sql";

/** How long a prepared write waits for its confirmation, ms: a person reads and says yes. */
export const CONFIRM_WITHIN_MS = 10 * 60_000;

/** Unconfirmed prepared writes one principal (a key, a grant) may keep waiting at once. */
export const MAX_UNCONFIRMED_PER_PRINCIPAL = 20;
/** Unconfirmed prepared writes one tenant keeps at once, whoever prepared them. */
export const MAX_UNCONFIRMED_PER_TENANT = 200;
/** The largest body a prepared write keeps, bytes: a voucher of a few hundred lines fits. */
export const MAX_PREPARED_BODY_BYTES = 64 * 1024;

/** `write_confirmations`, as of step 10 of `schema.ts` (change it with a new step). */
export const WRITE_CONFIRMATION_TABLES = [
  `CREATE TABLE IF NOT EXISTS write_confirmations (handle_hash TEXT PRIMARY KEY,
    principal TEXT NOT NULL, registration TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL,
    search TEXT NOT NULL, body TEXT, operation_class TEXT NOT NULL, prepared_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL, confirmed_at INTEGER)`,
  "CREATE INDEX IF NOT EXISTS write_confirmations_expiry ON write_confirmations (expires_at)",
];

/** A write as it was checked at preparation: what `confirm_write` sends. */
export const PreparedWrite = z.strictObject({
  method: z.enum(["POST", "PUT", "PATCH", "DELETE"]),
  path: z.string().max(2000),
  search: z.string().max(4000),
  /** JSON text or null; at most `MAX_PREPARED_BODY_BYTES` bytes, so at most as many characters. */
  body: z.string().max(MAX_PREPARED_BODY_BYTES).nullable(),
  operationClass: z.enum(["draft", "write"]),
});
export type PreparedWrite = z.output<typeof PreparedWrite>;

export interface StashAsk {
  handleHash: string;
  principal: string;
  write: PreparedWrite;
}

export type Taken =
  /** The write to send; `first` when this confirm is the first (a repeat replays its answer). */
  | { kind: "ready"; write: PreparedWrite; first: boolean; preparedAt: number }
  | { kind: "expired" }
  /** No such handle for this principal and registration (never told apart). */
  | { kind: "unknown" };

/** The narrow interface the holder's face reaches the confirmations through. */
export interface ConfirmationPort {
  stash(ask: StashAsk, registration: string, now: number): Outcome<{ expiresAt: number }>;
  take(handleHash: string, principal: string, registration: string, now: number): Taken;
}

const Waiting = z.object({ n: z.int(), first: z.int().nullable() });

const Stored = z.object({
  principal: z.string(),
  registration: z.string(),
  method: PreparedWrite.shape.method,
  path: z.string(),
  search: z.string(),
  body: z.string().nullable(),
  operation_class: PreparedWrite.shape.operationClass,
  prepared_at: z.int(),
  expires_at: z.int(),
  confirmed_at: z.int().nullable(),
});

/** The confirmations of one tenant object: a row goes at its end (`expires_at`). */
export class WriteConfirmations extends RetainedRows implements ConfirmationPort {
  constructor(sql: SqlStorage) {
    super(sql, expiring("write_confirmations"));
  }

  /** Keeps a checked write under its handle's hash, or refuses it (`too-many`) over a bound. */
  stash(ask: StashAsk, registration: string, now: number): Outcome<{ expiresAt: number }> {
    const w = PreparedWrite.parse(ask.write);
    const full = this.#full(ask.principal, now);
    if (full) return full;
    const expiresAt = now + CONFIRM_WITHIN_MS;
    this.sql.exec(
      `INSERT INTO write_confirmations (handle_hash, principal, registration, method, path, search,
        body, operation_class, prepared_at, expires_at, confirmed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      ask.handleHash,
      ask.principal,
      registration,
      w.method,
      w.path,
      w.search,
      w.body,
      w.operationClass,
      now,
      expiresAt,
    );
    return ok({ expiresAt });
  }

  #full(principal: string, now: number) {
    const waiting = (who: string | null) =>
      row(
        this.sql,
        Waiting,
        `SELECT COUNT(*) AS n, MIN(expires_at) AS first FROM write_confirmations
          WHERE confirmed_at IS NULL AND expires_at > ? AND (? IS NULL OR principal = ?)`,
        now,
        who,
        who,
      ) ?? { n: 0, first: null };
    const mine = waiting(principal);
    const all = mine.n < MAX_UNCONFIRMED_PER_PRINCIPAL ? waiting(null) : mine;
    const [over, cap, whose] =
      mine.n >= MAX_UNCONFIRMED_PER_PRINCIPAL
        ? [mine, MAX_UNCONFIRMED_PER_PRINCIPAL, "this connection"]
        : [all, MAX_UNCONFIRMED_PER_TENANT, "the tenant"];
    if (over.n < cap) return null;
    const seconds = Math.max(1, Math.ceil(((over.first ?? now) - now) / 1000));
    return fail(
      "too-many",
      `${whose} already keeps ${cap} prepared writes waiting for confirmation, the most it may: confirm them, or wait until the earliest expires (${seconds} s). Nothing was kept.`,
      seconds,
    );
  }

  /**
   * The write under `handleHash` for `principal`; the first confirmation marks it. Synchronous, so
   * of two arriving together exactly one is `first`.
   */
  take(handleHash: string, principal: string, registration: string, now: number): Taken {
    const r = row(
      this.sql,
      Stored,
      "SELECT * FROM write_confirmations WHERE handle_hash = ?",
      handleHash,
    );
    if (!r || r.principal !== principal || r.registration !== registration)
      return { kind: "unknown" };
    const write: PreparedWrite = {
      method: r.method,
      path: r.path,
      search: r.search,
      body: r.body,
      operationClass: r.operation_class,
    };
    if (r.confirmed_at !== null)
      return { kind: "ready", write, first: false, preparedAt: r.prepared_at };
    if (r.expires_at <= now) return { kind: "expired" };
    this.sql.exec(
      "UPDATE write_confirmations SET confirmed_at = ?, expires_at = ? WHERE handle_hash = ?",
      now,
      now + IDEMPOTENCY_TTL_MS,
      handleHash,
    );
    return { kind: "ready", write, first: true, preparedAt: r.prepared_at };
  }

  clear(): number {
    return deleteAll(this.sql, "write_confirmations");
  }
}
