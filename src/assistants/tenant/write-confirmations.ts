/**
 * @module
 * Writes an assistant prepared and has not yet confirmed (`prepare_write` / `confirm_write` of the
 * MCP server, `assistants/mcp/tools/prepare-tool.ts` and `confirm-tool.ts`): one row per
 * confirmation handle, filed under the handle's SHA-256 (the handle itself is never stored),
 * holding the checked request and who prepared it. Its own table (`write_confirmations`, step 10 of
 * `schema.ts`), reached through one narrow interface (`ConfirmationPort`): the key holder's face
 * forwards to it, nothing else reads it.
 *
 * A handle is a name, not a capability: it is honoured only for the principal that prepared it,
 * under the registration it was prepared under (a tenant removed and registered again, or a new
 * client key, forgets them all), and the caller's scope is checked again at confirmation.
 *
 * Lifetimes. A prepared write waits `CONFIRM_WITHIN_MS`; unconfirmed after that it is refused
 * (`expired`) and purged. Once confirmed it is kept as long as the idempotency record of its write
 * (`IDEMPOTENCY_TTL_MS`), because a confirm repeated after a dropped answer must send the same
 * request with the same key to be answered from that record, and not written twice.
 *
 * Bounds. Preparing sends nothing upstream, so the budget does not pace it: the table is bounded
 * here instead, at `MAX_UNCONFIRMED_PER_PRINCIPAL` and `MAX_UNCONFIRMED_PER_TENANT` waiting rows of
 * at most `MAX_PREPARED_BODY_BYTES` each. Confirmed rows are paced by the writes they sent.
 */
import { z } from "zod";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import { IDEMPOTENCY_TTL_MS } from "../../v2/tenant/idempotency-keys";
import { expiring, RetainedRows } from "../../kernel/stored-rows";
import { deleteAll, row } from "../../tenant/sql";

/**
 * How long a prepared write waits for its confirmation, ms: 10 minutes, enough for a person to read
 * the preview and say yes, short enough that a forgotten one does not linger.
 */
export const CONFIRM_WITHIN_MS = 10 * 60_000;

/** Unconfirmed prepared writes one principal (a key, a grant) may keep waiting at once. */
export const MAX_UNCONFIRMED_PER_PRINCIPAL = 20;
/** Unconfirmed prepared writes one tenant keeps at once, whoever prepared them. */
export const MAX_UNCONFIRMED_PER_TENANT = 200;
/**
 * The largest body a prepared write keeps, bytes of its JSON: a voucher of a few hundred lines
 * fits; a larger write goes through `/v2`, whose own cap is larger.
 */
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
  /** Below the v2 root, as checked. */
  path: z.string().max(2000),
  /** `?…` or empty. */
  search: z.string().max(4000),
  /** The body as JSON text, or null (at most `MAX_PREPARED_BODY_BYTES` bytes, so at most as many characters). */
  body: z.string().max(MAX_PREPARED_BODY_BYTES).nullable(),
  operationClass: z.enum(["draft", "write"]),
});
export type PreparedWrite = z.output<typeof PreparedWrite>;

/** What the key holder's face asks to keep. */
export interface StashAsk {
  handleHash: string;
  principal: string;
  write: PreparedWrite;
}

/** What a confirmation finds. */
export type Taken =
  /** The write to send; `first` when this confirm is the first (a repeat replays its answer). */
  | { kind: "ready"; write: PreparedWrite; first: boolean; preparedAt: number }
  /** Prepared, never confirmed, and too late now. */
  | { kind: "expired" }
  /** No such handle for this principal and registration (never told apart). */
  | { kind: "unknown" };

/** The narrow interface the key holder's face reaches the confirmations through. */
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

/**
 * The confirmations module of one tenant object: a row goes at its end (`expires_at`), unconfirmed
 * after its wait, confirmed after its idempotency record's.
 */
export class WriteConfirmations extends RetainedRows implements ConfirmationPort {
  constructor(sql: SqlStorage) {
    super(sql, expiring("write_confirmations"));
  }

  /**
   * Keeps a checked write under its handle's hash until `CONFIRM_WITHIN_MS` from `now`, or refuses
   * it (`too-many`, with when the earliest waiting row ends) when its principal or the tenant
   * already keeps as many unconfirmed writes as it may.
   */
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

  /** The refusal of one more waiting row for `principal`, or null while both bounds have room. */
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
   * The write under `handleHash` for `principal`: the first confirmation marks it confirmed and
   * keeps it as long as its idempotency record; a later one finds it again. Synchronous, so of
   * two confirmations arriving together exactly one is `first` (the write's idempotency record
   * then keeps the second from writing again).
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

  /** Forgets every prepared write (the tenant is removed, or its client key replaced). */
  clear(): number {
    return deleteAll(this.sql, "write_confirmations");
  }
}
