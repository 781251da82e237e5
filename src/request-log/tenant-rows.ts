/**
 * @module
 * The tenant's request log: one bounded row per API v2 call made for the tenant (by a gateway key's
 * holder, the console, an order run, an assistant or, later, the watcher), and the counters that
 * survive the object's idling. Its own tables (`request_log`, `call_counters`, step 8 of
 * `schema.ts`), reached through one narrow interface (`RequestLogPort`): the faces only forward to
 * it, no other module reads it.
 *
 * Bounded twice, whichever is less: the last `REQUEST_LOG_ROWS` calls and `REQUEST_LOG_MS` of age.
 * The watcher's calls have their own, smaller bound (`WATCHER_LOG_ROWS`), so a watcher polling in
 * the background can never push a caller's calls out of the log. Pruned at each write (the row
 * count) and by the alarm (the age), so nothing grows with traffic.
 */
import { z } from "zod";
import { camelRow, keptFor, RetainedRows } from "../kernel/stored-rows";
import { deleteAll, row, rows } from "../tenant/sql";

/** How many of the callers' calls are kept: the support desk looks back at recent calls. */
export const REQUEST_LOG_ROWS = 1000;
/** How many of the watcher's calls are kept, apart: its polling must not crowd out the callers'. */
export const WATCHER_LOG_ROWS = 200;
/** How long a call is kept, ms: 7 days (failed calls' bodies are personal data: docs/storage.md). */
export const REQUEST_LOG_MS = 7 * 24 * 60 * 60 * 1000;
/** Cap of the API's error body kept, characters. */
export const API_ERROR_CHARS = 4 * 1024;
/** Cap of a failed call's request body kept, characters. */
export const REQUEST_BODY_CHARS = 16 * 1024;

/** `request_log` and `call_counters`, as of step 8 of `schema.ts` (change them with a new step). */
export const REQUEST_LOG_TABLES = [
  `CREATE TABLE IF NOT EXISTS request_log (seq INTEGER PRIMARY KEY AUTOINCREMENT,
    request_id TEXT NOT NULL, at INTEGER NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL,
    query TEXT NOT NULL, status INTEGER NOT NULL, api_status INTEGER, api_error TEXT,
    attempts INTEGER NOT NULL, waited_ms INTEGER NOT NULL, duration_ms INTEGER NOT NULL,
    caller_kind TEXT NOT NULL, caller_id TEXT, body TEXT, watcher INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS request_log_lane ON request_log (watcher, seq)",
  "CREATE INDEX IF NOT EXISTS request_log_status ON request_log (status, seq)",
  "CREATE TABLE IF NOT EXISTS call_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
];

/**
 * Who made a call. A key is named by a short, non-secret id (see `request-log/record.ts`). `events`
 * is not a call of the API: the notice that a webhook endpoint was disabled
 * (`events/notice.ts`), written here so the support desk sees it beside the calls. `stripe` is
 * not one either: a payout run's read of Stripe's API (`payouts/stripe/client.ts`), named by the
 * run's instance id.
 */
export const CallerKind = z.enum([
  "key",
  "console",
  "order-run",
  "assistant",
  "watcher",
  "events",
  "stripe",
]);
export type CallerKind = z.output<typeof CallerKind>;

/** One call, as it is written. `at` is epoch ms; `query` holds the query's names, never values. */
export const LoggedCall = z.strictObject({
  requestId: z.string().max(200),
  at: z.int(),
  method: z.string().max(16),
  path: z.string().max(2000),
  query: z.array(z.string().max(200)).max(50),
  status: z.int(),
  apiStatus: z.int().nullable(),
  apiError: z.string().max(API_ERROR_CHARS).nullable(),
  attempts: z.int().min(0),
  waitedMs: z.int().min(0),
  durationMs: z.int().min(0),
  caller: z.strictObject({ kind: CallerKind, id: z.string().max(64).nullable() }),
  body: z.string().max(REQUEST_BODY_CHARS).nullable(),
});
export type LoggedCall = z.output<typeof LoggedCall>;

/** What the counters need of a call: nothing of its path, error or body. */
export const CountedCall = LoggedCall.pick({
  status: true,
  apiStatus: true,
  attempts: true,
  waitedMs: true,
});
export type CountedCall = z.output<typeof CountedCall>;

/** A stored call with its cursor (`seq`: pass it as `before` for the page after). */
export type LoggedRow = LoggedCall & { seq: number };

/** `4xx`-style class or an exact status. */
export type StatusFilter = { exact: number } | { class: number } | null;

/** The counters kept with the tenant, and since when they count (epoch ms). */
export interface CallCounters {
  upstreamCalls: number;
  waits: number;
  refusals: number;
  since: number;
}

/** The narrow interface the faces reach the log through. */
export interface RequestLogPort {
  record(call: LoggedCall): void;
  count(call: CountedCall): void;
  list(status: StatusFilter, limit: number, before: number | null, now: number): LoggedRow[];
  counters(): CallCounters;
}

const Stored = camelRow({
  seq: z.int(),
  request_id: z.string(),
  at: z.int(),
  method: z.string(),
  path: z.string(),
  query: z.string(),
  status: z.int(),
  api_status: z.int().nullable(),
  api_error: z.string().nullable(),
  attempts: z.int(),
  waited_ms: z.int(),
  duration_ms: z.int(),
  caller_kind: CallerKind,
  caller_id: z.string().nullable(),
  body: z.string().nullable(),
}).transform(({ callerKind, callerId, body, ...r }): LoggedRow => ({
  ...r,
  query: z.array(z.string()).parse(JSON.parse(r.query)),
  caller: { kind: callerKind, id: callerId },
  body,
}));

const Counter = z.object({ name: z.string(), value: z.int() });
const Held = z.object({ n: z.int() });

/** The request log module of one tenant object: a call is kept `REQUEST_LOG_MS` after its `at`. */
export class RequestLog extends RetainedRows implements RequestLogPort {
  /**
   * How many rows each lane holds (`[callers', watcher's]`), or null while not known: counted once,
   * then kept up to date by `record`, and forgotten by anything else that deletes rows. Why keep
   * it: the bound used to be found with `ORDER BY seq DESC LIMIT 1 OFFSET 1000`, a walk over the
   * whole lane on every write, and with `isEmpty` another query; together a third of the row's
   * write in a profile of warm `/v2` calls (issue 26), and every `/v2` call writes a row. Exact as
   * long as this instance is the only writer of the table, which it is: one per tenant object
   * (`tenant/tenant-object.ts`), the table reached through it alone; a statement that throws
   * forgets the counts, so a failed write is counted again rather than trusted.
   */
  #held: [number | null, number | null] = [null, null];

  constructor(
    sql: SqlStorage,
    private readonly now: () => number,
  ) {
    super(sql, keptFor("request_log", REQUEST_LOG_MS));
  }

  /**
   * Writes one call and keeps the bound: the oldest rows of its lane past the lane's size go. The
   * counters move in the same synchronous step, so they never disagree with what was written.
   */
  record(call: LoggedCall): void {
    const c = LoggedCall.parse(call);
    const watcher = c.caller.kind === "watcher" ? 1 : 0;
    const keep = watcher ? WATCHER_LOG_ROWS : REQUEST_LOG_ROWS;
    const held = this.#heldIn(watcher);
    try {
      this.#insert(c, watcher);
      // The oldest rows of the lane past its bound go (one, once the lane is full).
      const over = Math.max(0, held + 1 - keep);
      if (over > 0)
        this.sql.exec(
          `DELETE FROM request_log WHERE seq IN
            (SELECT seq FROM request_log WHERE watcher = ? ORDER BY seq LIMIT ?)`,
          watcher,
          over,
        );
      this.#held[watcher] = held + 1 - over;
    } catch (e) {
      // What was written is no longer known for sure: count again next time.
      this.#held = [null, null];
      throw e;
    }
    // The counters count the accounting API's shared budget, which a call to Stripe does not spend.
    if (c.caller.kind !== "stripe") this.#countParsed(c);
  }

  #insert(c: LoggedCall, watcher: 0 | 1): void {
    this.sql.exec(
      `INSERT INTO request_log (request_id, at, method, path, query, status, api_status, api_error,
        attempts, waited_ms, duration_ms, caller_kind, caller_id, body, watcher)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      c.requestId,
      c.at,
      c.method,
      c.path,
      JSON.stringify(c.query),
      c.status,
      c.apiStatus,
      c.apiError,
      c.attempts,
      c.waitedMs,
      c.durationMs,
      c.caller.kind,
      c.caller.id,
      c.body,
      watcher,
    );
  }

  /** How many rows lane `watcher` holds: the count kept, else counted (and kept from then on). */
  #heldIn(watcher: 0 | 1): number {
    const known = this.#held[watcher];
    if (known !== null) return known;
    const n =
      row(this.sql, Held, "SELECT COUNT(*) AS n FROM request_log WHERE watcher = ?", watcher)?.n ??
      0;
    this.#held[watcher] = n;
    return n;
  }

  /** Moves the counters for one call and stores nothing else of it (`REQUEST_LOG=counters`). */
  count(call: CountedCall): void {
    this.#countParsed(CountedCall.parse(call));
  }

  /**
   * Moves the counters in one statement: `since` is set by the first call ever counted and never
   * moved again, and each counter grows by its share of the call (one that would grow by 0 is left
   * out: a counter never written reads 0). One statement, not one `since` and one bump per
   * counter: the row of every `/v2` call is written here, and these statements were a fifth of
   * its write in a profile of warm calls (issue 26).
   */
  #countParsed(c: CountedCall): void {
    const bumps = [
      ["upstreamCalls", c.attempts],
      ["waits", c.waitedMs > 0 ? 1 : 0],
      // A refusal: the gateway answered without the API's answer (no permit in time, timeout).
      ["refusals", c.apiStatus === null && c.status >= 400 ? 1 : 0],
    ] as const;
    const moved = bumps.filter(([, by]) => by !== 0);
    // The query's text depends only on how many counters move (0 to 3); every value is bound.
    this.sql.exec(
      `INSERT INTO call_counters (name, value) VALUES ('since', ?)${", (?, ?)".repeat(moved.length)}
       ON CONFLICT (name) DO UPDATE SET value = call_counters.value + excluded.value
       WHERE call_counters.name <> 'since'`,
      this.now(),
      ...moved.flat(),
    );
  }

  /** Calls newest first, at most `limit`, older than the cursor `before`, within the age bound. */
  list(status: StatusFilter, limit: number, before: number | null, now: number): LoggedRow[] {
    const [low, high] =
      status === null
        ? [0, 1000]
        : "exact" in status
          ? [status.exact, status.exact + 1]
          : [status.class * 100, status.class * 100 + 100];
    return this.newest(Stored, { limit, before, now }, "status >= ? AND status < ?", low, high);
  }

  /** The counters, and since when they count: the first call counted after step 8. */
  counters(): CallCounters {
    const values = new Map(
      rows(this.sql, Counter, "SELECT name, value FROM call_counters").map((r) => [
        r.name,
        r.value,
      ]),
    );
    return {
      upstreamCalls: values.get("upstreamCalls") ?? 0,
      waits: values.get("waits") ?? 0,
      refusals: values.get("refusals") ?? 0,
      since: values.get("since") ?? this.now(),
    };
  }

  /** Drops calls older than the age bound (the alarm's purge), forgetting the lanes' counts. */
  override purge(now: number): void {
    this.#held = [null, null];
    super.purge(now);
  }

  /** Whether no call is kept (from the lanes' counts). */
  isEmpty(): boolean {
    return this.#heldIn(0) + this.#heldIn(1) === 0;
  }

  /**
   * Forgets every call, keeping the counters, and answers how many calls went (the client key is
   * replaced). Why the rows go: a failed call's body and the API's errors are the old company's
   * personal data. Why the counters stay: they count what the tenant spent of the shared budget,
   * nothing of the books.
   */
  clearCalls(): number {
    // Forgotten, not set to 0: a transaction around this may yet be rolled back.
    this.#held = [null, null];
    return deleteAll(this.sql, "request_log");
  }

  /** Forgets every call and resets the counters (the tenant is removed). */
  clear(): void {
    this.#held = [null, null];
    this.sql.exec("DELETE FROM request_log");
    this.sql.exec("DELETE FROM call_counters");
  }
}
