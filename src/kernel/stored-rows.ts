/**
 * @module The shapes the objects' tables share; a row that does not match its schema throws. See
 * docs/design/storage-and-migrations.md.
 */
import { z } from "zod";
import { identifier } from "./columns";

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

export type Camelized<T> = { [K in keyof T & string as Camel<K>]: T[K] };

function camel(key: string): string {
  const [head = "", ...tail] = key.split("_");
  return head + tail.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("");
}

/**
 * A snake_case row read as a record of the same values under camelCase keys.
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

const parsed = <T extends z.ZodType>(
  sql: SqlStorage,
  schema: T,
  query: string,
  params: readonly SqlStorageValue[] = [],
): z.output<T>[] => z.array(schema).parse(sql.exec(query, ...params).toArray());

/** Kept `keepMs` after `column` (epoch ms); `goneAtEnd`: gone at that instant, not once past it. */
export interface Retention {
  readonly table: string;
  readonly column: string;
  readonly keepMs: number;
  readonly goneAtEnd: boolean;
}

export const expiring = (table: string): Retention => ({
  table: identifier(table),
  column: "expires_at",
  keepMs: 0,
  goneAtEnd: true,
});

export const keptFor = (table: string, keepMs: number): Retention => ({
  table: identifier(table),
  column: "at",
  keepMs,
  goneAtEnd: false,
});

export interface Cursor {
  readonly limit: number;
  /** Only rows whose `seq` is below it; null: from the newest. */
  readonly before: number | null;
  readonly now: number;
}

const At = z.object({ at: z.int() });

/** A table under a `Retention`: its purge, and pages of exactly the rows the purge would keep. */
export class RetainedRows {
  protected constructor(
    protected readonly sql: SqlStorage,
    private readonly retention: Retention,
  ) {}

  purge(now: number): void {
    const { table, column, keepMs, goneAtEnd } = this.retention;
    this.sql.exec(`DELETE FROM ${table} WHERE ${column} ${goneAtEnd ? "<=" : "<"} ?`, now - keepMs);
  }

  dueAt(): number | null {
    const { table, column, keepMs } = this.retention;
    const [first] = parsed(
      this.sql,
      At,
      `SELECT ${column} AS at FROM ${table} ORDER BY ${column} LIMIT 1`,
    );
    return first ? first.at + keepMs : null;
  }

  /** Kept rows, newest `seq` first, matching `filter` (its `?`s bound to `params`). */
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

export interface BookRecord<S extends string> {
  readonly source: string;
  readonly state: S;
  readonly updatedAt: string;
}

export interface BookTable<R> {
  /** Columns `source`, `id`, `state`, `updated_at`, `pending`, `start_at` and `data`, at least. */
  readonly table: string;
  readonly id: string;
  readonly row: z.ZodType<R>;
  /** How long after its change a newly due start is due for the alarm's backstop, ms. */
  readonly startRetryMs: number;
}

/** Starts one alarm makes at most: each is an RPC to the Workflow engine. */
const PENDING_BATCH = 50;

const Due = z.object({ due: z.int().nullable() });

/** JSON records, one per `source` and id. All synchronous: read, decide, write with no await. */
export class RecordBook<S extends string, R extends BookRecord<S>> {
  protected constructor(
    protected readonly sql: SqlStorage,
    private readonly book: BookTable<R>,
  ) {
    identifier(book.table);
    identifier(book.id);
  }

  get(source: string, id: string): R | null {
    const { table, id: key, row } = this.book;
    const query = `SELECT data FROM ${table} WHERE source = ? AND ${key} = ?`;
    return parsed(this.sql, row, query, [source, id])[0] ?? null;
  }

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

  /** Records with a run to start, longest due first (a batch: the next alarm takes the rest). */
  pending(): R[] {
    const { table, row } = this.book;
    return parsed(
      this.sql,
      row,
      `SELECT data FROM ${table} WHERE pending = 1 ORDER BY start_at LIMIT ?`,
      [PENDING_BATCH],
    );
  }

  startDueAt(): number | null {
    const [r] = parsed(
      this.sql,
      Due,
      `SELECT MIN(start_at) AS due FROM ${this.book.table} WHERE pending = 1`,
    );
    return r?.due ?? null;
  }

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
   * Stores `record` (checked by the caller) with more `columns`. A newly pending start is due
   * `startRetryMs` after its change (at once if unparsable); a still pending one keeps its time.
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

export type Made =
  /** The instance exists (made now, or before: the engine refuses a second one with its id). */
  | "made"
  /** Still to make: another call is making it, or the engine failed and the start was deferred. */
  | "waiting"
  | "stale";

export interface DueStart<P> {
  readonly id: string;
  readonly params: P;
  /** Read from the book now: the caller's copy may be behind. */
  stillDue(): boolean;
  defer(): void;
}

/** The instances one object is making, so concurrent calls don't each remake them. One per book. */
export class InstanceStarts {
  readonly #making = new Set<string>();

  async make<P>(workflow: Workflow<P>, start: DueStart<P>): Promise<Made> {
    const { id, params } = start;
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

/** Runs remembered at most: the oldest seen goes first. */
const MAX_PULSES = 10_000;

/**
 * When each run's instance was last seen calling, in memory only: a run waiting for permits is
 * silent in its reports but not here, and a crash forgets it as the local runtime forgets the run.
 */
export class Pulses {
  readonly #at = new Map<string, number>();

  beat(id: string, now: number): void {
    this.#at.delete(id);
    this.#at.set(id, now);
    if (this.#at.size > MAX_PULSES) this.#at.delete(this.#at.keys().next().value ?? id);
  }

  /** Whether instance `id` called within `ms` of `now`. */
  recent(id: string, now: number, ms: number): boolean {
    return now - (this.#at.get(id) ?? -Infinity) < ms;
  }
}

/** What an engine says of an instance it is moving, or of one an operator paused. */
const MOVING = new Set(["waiting", "paused", "waitingForPause"]);
/** Revivals of one run before it fails for the operator: an engine that keeps losing it. */
const MAX_REVIVALS = 3;

/**
 * Null while the engine moves instance `id`; else its status (`missing`: no such instance), the
 * instance terminated first, so a revived run's next attempt is the only one left.
 */
export async function lostInstance<P>(workflow: Workflow<P>, id: string): Promise<string | null> {
  let engine: string;
  try {
    engine = (await (await workflow.get(id)).status()).status;
  } catch {
    return "missing";
  }
  if (MOVING.has(engine)) return null;
  await workflow
    .get(id)
    .then((i) => i.terminate())
    .catch(() => undefined);
  return engine;
}

/** The `revive` step of a run the engine lost, and whether it was lost too often to go on. */
export function reviveStep(steps: readonly { name: string }[], engine: string, at: string) {
  const revivals = steps.filter((x) => x.name === "revive").length + 1;
  return {
    step: { name: "revive", at, ok: true, result: { engine } },
    exhausted:
      revivals > MAX_REVIVALS
        ? `The Workflow engine lost this run ${revivals} times (last: ${engine}); retry it once the engine is healthy.`
        : null,
  };
}
