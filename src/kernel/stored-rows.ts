/**
 * @module
 * The shapes the objects' tables share, each given one home: a snake_case row read as a camelCase
 * record (`camelRow`), a table whose rows outlive their time by a fixed span or end at a stored
 * time, with the alarm's purge, its due time and a newest-first page by cursor (`RetainedRows`),
 * and a book of JSON records whose Workflow runs the alarm starts (`RecordBook`, `InstanceStarts`).
 *
 * Rows are parsed with zod: one that does not match its schema is a storage fault and throws. Table
 * and column names are the modules' own constants, checked to be plain identifiers before they
 * reach the SQL text; values are always bound.
 */
import { z } from "zod";
import { identifier } from "./columns";

/** `snake_case` as `snakeCase`, as a type: each `_` dropped and the letter after it upper-cased. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** `T` with each key in camelCase (`Camel`), its values as they are. */
export type Camelized<T> = { [K in keyof T & string as Camel<K>]: T[K] };

/** `key` in camelCase: the same rule as `Camel`, so the value matches its type. */
function camel(key: string): string {
  const [head = "", ...tail] = key.split("_");
  return head + tail.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("");
}

/**
 * A row of the columns `shape` (snake_case, as SQL names them) read as a record of the same values
 * under camelCase keys, in the columns' order. One rule for every table, so a record's field is
 * always its column's name and a column added to the shape reaches the record without a second
 * list to keep in step.
 *
 * @example
 * const Row = camelRow({ started_at: z.int(), delay_ms: z.int().nullable() });
 * // z.output<typeof Row>: { startedAt: number; delayMs: number | null }
 */
export function camelRow<Shape extends z.ZodRawShape>(shape: Shape) {
  return z
    .object(shape)
    .transform(
      (r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [camel(k), v])) as Camelized<typeof r>,
    );
}

/** Every row of `query`, `params` bound, parsed with `schema`: a row that does not match throws. */
const parsed = <T extends z.ZodType>(
  sql: SqlStorage,
  schema: T,
  query: string,
  params: readonly SqlStorageValue[] = [],
): z.output<T>[] => z.array(schema).parse(sql.exec(query, ...params).toArray());

/**
 * How long a table keeps each row: the row's time is in `column` (INTEGER, epoch ms) and it is kept
 * `keepMs` after it. `goneAtEnd`: whether the row is gone at the very instant its life ends (a
 * stored end, `expires_at`) or only once past it (an age bound on a log's `at`).
 */
export interface Retention {
  readonly table: string;
  readonly column: string;
  readonly keepMs: number;
  readonly goneAtEnd: boolean;
}

/** Rows that end at the time they hold in `expires_at`, and are gone from that instant. */
export const expiring = (table: string): Retention => ({
  table: identifier(table),
  column: "expires_at",
  keepMs: 0,
  goneAtEnd: true,
});

/** Rows kept `keepMs` after their `at`, and gone once past that. */
export const keptFor = (table: string, keepMs: number): Retention => ({
  table: identifier(table),
  column: "at",
  keepMs,
  goneAtEnd: false,
});

/** Where a newest-first page starts and how long it is. */
export interface Cursor {
  /** Rows at most. */
  readonly limit: number;
  /** Only rows whose `seq` is below it (the last `seq` of the page before); null: the newest. */
  readonly before: number | null;
  /** The time the retention is measured at, epoch ms. */
  readonly now: number;
}

const At = z.object({ at: z.int() });

/**
 * A module's table under a `Retention`: its purge and when the next one is due (what the Tenant's
 * alarm asks of every retained module), and a page that shows exactly the rows the purge would
 * keep, so a row past its life is never answered merely because the alarm has not yet run.
 */
export class RetainedRows {
  protected constructor(
    protected readonly sql: SqlStorage,
    private readonly retention: Retention,
  ) {}

  /** Drops the rows whose life is over at `now` (epoch ms). Safe to repeat. */
  purge(now: number): void {
    const { table, column, keepMs, goneAtEnd } = this.retention;
    this.sql.exec(`DELETE FROM ${table} WHERE ${column} ${goneAtEnd ? "<=" : "<"} ?`, now - keepMs);
  }

  /** When the first row's life ends (epoch ms), or null when there is no row. */
  dueAt(): number | null {
    const { table, column, keepMs } = this.retention;
    const [first] = parsed(
      this.sql,
      At,
      `SELECT ${column} AS at FROM ${table} ORDER BY ${column} LIMIT 1`,
    );
    return first ? first.at + keepMs : null;
  }

  /**
   * The rows still kept at `cursor.now`, newest `seq` first, below `cursor.before`, at most
   * `cursor.limit`, and matching `filter` (a condition on the table's columns whose `?`s `params`
   * bind; empty: every row). For a table keyed `seq INTEGER PRIMARY KEY AUTOINCREMENT`.
   */
  protected newest<T extends z.ZodType>(
    schema: T,
    cursor: Cursor,
    filter = "",
    ...params: SqlStorageValue[]
  ): z.output<T>[] {
    const { table, column, keepMs, goneAtEnd } = this.retention;
    return parsed(
      this.sql,
      schema,
      `SELECT * FROM ${table} WHERE ${filter && `${filter} AND `}seq < ? AND ${column} ${goneAtEnd ? ">" : ">="} ?
       ORDER BY seq DESC LIMIT ?`,
      [...params, cursor.before ?? Number.MAX_SAFE_INTEGER, cursor.now - keepMs, cursor.limit],
    );
  }
}

/** What every record of a `RecordBook` holds: its source, its state and when it last changed. */
export interface BookRecord<S extends string> {
  readonly source: string;
  readonly state: S;
  /** ISO time of its last change. */
  readonly updatedAt: string;
}

/** A `RecordBook`'s table, and how its rows read. */
export interface BookTable<R> {
  /** Columns `source`, `id`, `state`, `updated_at`, `pending`, `start_at` and `data`, at least. */
  readonly table: string;
  /** The column that keys a record together with `source`. */
  readonly id: string;
  /** A row's `data` (the record as JSON), read as the record. */
  readonly row: z.ZodType<R>;
  /** How long after its change a newly due start is due for the alarm's backstop, ms. */
  readonly startRetryMs: number;
}

/** Starts one alarm makes at most: each is an RPC to the Workflow engine. */
const PENDING_BATCH = 50;

const Due = z.object({ due: z.int().nullable() });

/**
 * A table of JSON records, one per `source` and id, with the columns the listing and the alarm
 * read: the state, the last change, whether a run is still to start (`pending`) and when that start
 * is due (`start_at`, kept while it stays pending, so a failed start is not pushed back by later
 * changes and an eviction forgets nothing of it). All synchronous: callers read, decide and write
 * without an await in between.
 */
export class RecordBook<S extends string, R extends BookRecord<S>> {
  protected constructor(
    protected readonly sql: SqlStorage,
    private readonly book: BookTable<R>,
  ) {
    identifier(book.table);
    identifier(book.id);
  }

  /** One record, or null. */
  get(source: string, id: string): R | null {
    const { table, id: key, row } = this.book;
    const query = `SELECT data FROM ${table} WHERE source = ? AND ${key} = ?`;
    return parsed(this.sql, row, query, [source, id])[0] ?? null;
  }

  /** Records, newest change first, optionally in one state. */
  list(state: S | null, limit: number): R[] {
    const { table, row } = this.book;
    const [where, params] = state ? ["WHERE state = ? ", [state, limit]] : ["", [limit]];
    return parsed(
      this.sql,
      row,
      `SELECT data FROM ${table} ${where}ORDER BY updated_at DESC LIMIT ?`,
      params,
    );
  }

  /** Records with a run to start, the longest due first (a batch: the next alarm takes the rest). */
  pending(): R[] {
    const { table, row } = this.book;
    return parsed(
      this.sql,
      row,
      `SELECT data FROM ${table} WHERE pending = 1 ORDER BY start_at LIMIT ?`,
      [PENDING_BATCH],
    );
  }

  /** When the earliest start is due (epoch ms), from the rows alone; null when none waits. */
  startDueAt(): number | null {
    const [r] = parsed(
      this.sql,
      Due,
      `SELECT MIN(start_at) AS due FROM ${this.book.table} WHERE pending = 1`,
    );
    return r?.due ?? null;
  }

  /** A record's run could not be started: the next try is due at `at` (epoch ms). */
  deferStart(source: string, id: string, at: number): void {
    const { table, id: key } = this.book;
    this.sql.exec(
      `UPDATE ${table} SET start_at = ? WHERE source = ? AND ${key} = ? AND pending = 1`,
      at,
      source,
      id,
    );
  }

  /**
   * Stores `record` (checked by the caller) keyed by its source and `id`, with `columns` (more of
   * the table's columns, by name, written and replaced with it). While it has a run to start
   * (`pending`) it keeps the time that start was due; one that newly has a run to start is due
   * `startRetryMs` after its change (at once when that time does not parse, rather than never);
   * one with nothing to start has none.
   */
  protected store(
    record: R,
    id: string,
    pending: boolean,
    columns: Readonly<Record<string, SqlStorageValue>> = {},
  ): void {
    const { table, id: key, startRetryMs } = this.book;
    const more = Object.keys(columns).map(identifier);
    const changed = Date.parse(record.updatedAt);
    this.sql.exec(
      `INSERT INTO ${table} (source, ${key}, state, updated_at, pending, start_at${more.map((c) => `, ${c}`).join("")}, data)
       VALUES (?, ?, ?, ?, ?, ?${", ?".repeat(more.length)}, ?)
       ON CONFLICT (source, ${key}) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at,
         pending = excluded.pending, data = excluded.data${more.map((c) => `, ${c} = excluded.${c}`).join("")},
         start_at = CASE WHEN excluded.pending = 0 THEN NULL ELSE COALESCE(${table}.start_at, excluded.start_at) END`,
      record.source,
      id,
      record.state,
      record.updatedAt,
      pending ? 1 : 0,
      pending ? (Number.isFinite(changed) ? changed + startRetryMs : 0) : null,
      ...Object.values(columns),
      JSON.stringify(record),
    );
  }
}

/** How making a due start's Workflow instance went. */
export type Made =
  /** The instance exists (made now, or before: the engine refuses a second one with its id). */
  | "made"
  /** Still to make: another call is making it, or the engine failed and the start was deferred. */
  | "waiting"
  /** No longer due: another call made it while this one awaited. */
  | "stale";

/** A due start, as `InstanceStarts` needs it. */
export interface DueStart<P> {
  /** The instance's id: derived from what it runs, so one start is one instance. */
  readonly id: string;
  readonly params: P;
  /** Whether it is still due, read from the book now (the caller's copy may be behind). */
  stillDue(): boolean;
  /** The engine failed: record when the alarm tries again. */
  defer(): void;
}

/**
 * The Workflow instances one object is making. Concurrent calls each start what is pending, and a
 * start stays pending until its instance exists, so without this every delivery of a burst made
 * the instances of all the others again, each a round trip to the Workflows engine while the
 * caller waits. Keep one per book whose starts it makes.
 */
export class InstanceStarts {
  readonly #making = new Set<string>();

  /** Makes `start`'s instance of `workflow` unless another call is making it or it is not due. */
  async make<P>(workflow: Workflow<P>, start: DueStart<P>): Promise<Made> {
    const { id, params } = start;
    // Another call is making it: if that fails, it defers the start; the alarm tries again.
    if (this.#making.has(id)) return "waiting";
    if (!start.stillDue()) return "stale";
    this.#making.add(id);
    try {
      await workflow.create({ id, params });
    } catch (e) {
      // The engine refuses a second instance with this id: it was made before, by us.
      if (!/already exists/i.test(String(e))) {
        start.defer();
        return "waiting";
      }
    } finally {
      this.#making.delete(id);
    }
    return "made";
  }
}
