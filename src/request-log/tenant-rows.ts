/**
 * @module
 * The tenant's request log: one row per API call made for it, and counters that survive idling.
 * Bounded by count at each write and by age in the alarm; the watcher's rows have their own lane,
 * so polling never pushes a caller's row out.
 */
import { z } from "zod";
import { camelRow, keptFor, RetainedRows } from "../kernel/stored-rows";
import { deleteAll, row, rows } from "../tenant/sql";

/** Rows kept: the callers' calls, and the watcher's apart. */
export const REQUEST_LOG_ROWS = 1000;
export const WATCHER_LOG_ROWS = 200;
/** How long a call is kept, ms (failed calls' bodies are personal data: docs/storage.md). */
export const REQUEST_LOG_MS = 7 * 24 * 60 * 60 * 1000;
/** Caps of the API's error body and of a failed call's request body kept, characters. */
export const API_ERROR_CHARS = 4 * 1024;
export const REQUEST_BODY_CHARS = 16 * 1024;

/** `request_log` and `call_counters`, made by a step of `schema.ts` (change them by a new one). */
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
 * Who made a call. `events` rows are the events' follow-up reads and the notice of a disabled
 * endpoint (`events/notice.ts`); `stripe`, a payout run's read of Stripe's API.
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
  caller: z.strictObject({
    kind: CallerKind,
    id: z.string().max(64).nullable(),
    /** The order runs one shared call served (their instance ids); absent for a call of one. */
    served: z.array(z.string().max(100)).max(50).optional(),
  }),
  body: z.string().max(REQUEST_BODY_CHARS).nullable(),
});
export type LoggedCall = z.output<typeof LoggedCall>;

export const CountedCall = LoggedCall.pick({
  status: true,
  apiStatus: true,
  attempts: true,
  waitedMs: true,
});
export type CountedCall = z.output<typeof CountedCall>;

/** A stored call with its cursor (`seq`: pass it as `before` for the page after). */
export type LoggedRow = LoggedCall & { seq: number };

export type StatusFilter = { exact: number } | { class: number } | null;
/** Whose calls a page lists: one kind's, every caller's but the watcher's (`callers`), or all. */
export type CallerFilter = CallerKind | "callers" | "all";

/** The counters, and since when they count (epoch ms). */
export interface CallCounters {
  upstreamCalls: number;
  waits: number;
  refusals: number;
  since: number;
}

export interface RequestLogPort {
  record(call: LoggedCall): void;
  count(call: CountedCall): void;
  list(
    status: StatusFilter,
    limit: number,
    before: number | null,
    now: number,
    caller?: CallerFilter,
  ): LoggedRow[];
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
  caller_served: z.string().nullable(),
  body: z.string().nullable(),
}).transform(({ callerKind, callerId, callerServed, body, ...r }): LoggedRow => ({
  ...r,
  query: z.array(z.string()).parse(JSON.parse(r.query)),
  caller: {
    kind: callerKind,
    id: callerId,
    ...(callerServed ? { served: z.array(z.string()).parse(JSON.parse(callerServed)) } : {}),
  },
  body,
}));

const Counter = z.object({ name: z.string(), value: z.int() });
const Held = z.object({ n: z.int() });

/** The request log module of one tenant object: a call is kept `REQUEST_LOG_MS` after its `at`. */
export class RequestLog extends RetainedRows implements RequestLogPort {
  /**
   * Rows per lane (callers', watcher's), null until counted, so no write scans its lane (a scan is
   * a third of a `/v2` row's write). Exact: this is the table's only writer; a failure forgets it.
   */
  #held: [number | null, number | null] = [null, null];

  constructor(
    sql: SqlStorage,
    private readonly now: () => number,
  ) {
    super(sql, keptFor("request_log", REQUEST_LOG_MS));
  }

  /** Writes one call and keeps its lane's bound; the counters move in the same synchronous step. */
  record(call: LoggedCall): void {
    const c = LoggedCall.parse(call);
    const watcher = c.caller.kind === "watcher" ? 1 : 0;
    const keep = watcher ? WATCHER_LOG_ROWS : REQUEST_LOG_ROWS;
    const held = this.#heldIn(watcher);
    try {
      this.#insert(c, watcher);
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
      this.#held = [null, null];
      throw e;
    }
    // The counters count the accounting API's shared budget, which a call to Stripe does not spend.
    if (c.caller.kind !== "stripe") this.#countParsed(c);
  }

  #insert(c: LoggedCall, watcher: 0 | 1): void {
    this.sql.exec(
      `INSERT INTO request_log (request_id, at, method, path, query, status, api_status, api_error,
        attempts, waited_ms, duration_ms, caller_kind, caller_id, caller_served, body, watcher)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      c.caller.served ? JSON.stringify(c.caller.served) : null,
      c.body,
      watcher,
    );
  }

  #heldIn(watcher: 0 | 1): number {
    const known = this.#held[watcher];
    if (known !== null) return known;
    const n =
      row(this.sql, Held, "SELECT COUNT(*) AS n FROM request_log WHERE watcher = ?", watcher)?.n ??
      0;
    this.#held[watcher] = n;
    return n;
  }

  /** Moves the counters for one call and stores no row (`REQUEST_LOG=counters`). */
  count(call: CountedCall): void {
    this.#countParsed(CountedCall.parse(call));
  }

  /** Moves the counters in one statement (one per counter is a fifth of a `/v2` row's write). */
  #countParsed(c: CountedCall): void {
    const bumps = [
      ["upstreamCalls", c.attempts],
      ["waits", c.waitedMs > 0 ? 1 : 0],
      // A refusal: the gateway answered without the API's answer (no permit in time, timeout).
      ["refusals", c.apiStatus === null && c.status >= 400 ? 1 : 0],
    ] as const;
    const moved = bumps.filter(([, by]) => by !== 0);
    // The text depends only on how many counters move; every value is bound.
    this.sql.exec(
      `INSERT INTO call_counters (name, value) VALUES ('since', ?)${", (?, ?)".repeat(moved.length)}
       ON CONFLICT (name) DO UPDATE SET value = call_counters.value + excluded.value
       WHERE call_counters.name <> 'since'`,
      this.now(),
      ...moved.flat(),
    );
  }

  /**
   * Calls newest first, at most `limit`, older than the cursor `before`, within the age bound, of
   * `caller` (`callers`: all but the watcher's lane).
   */
  list(
    status: StatusFilter,
    limit: number,
    before: number | null,
    now: number,
    caller: CallerFilter = "all",
  ): LoggedRow[] {
    const [low, high] =
      status === null
        ? [0, 1000]
        : "exact" in status
          ? [status.exact, status.exact + 1]
          : [status.class * 100, status.class * 100 + 100];
    const cursor = { limit, before, now };
    const range = "status >= ? AND status < ?";
    if (caller === "all") return this.newest(Stored, cursor, range, low, high);
    if (caller === "callers")
      return this.newest(Stored, cursor, `watcher = 0 AND ${range}`, low, high);
    return this.newest(Stored, cursor, `caller_kind = ? AND ${range}`, caller, low, high);
  }

  /** The kept call of request id `id`, if any (a search's). */
  find(id: string, now: number): LoggedRow | null {
    return this.newest(Stored, { limit: 1, before: null, now }, "request_id = ?", id)[0] ?? null;
  }

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

  isEmpty(): boolean {
    return this.#heldIn(0) + this.#heldIn(1) === 0;
  }

  /** A new client key: forgets the calls (the old company's personal data), keeps the counters. */
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
