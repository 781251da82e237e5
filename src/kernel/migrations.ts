/**
 * @module
 * Numbered schema migrations for a Durable Object's SQLite storage: the one mechanism every
 * stateful object of the gateway uses. A class keeps its layout's history as a list of steps, each
 * with a number; the number of the last step applied is the `schema` row of the `meta` table. On
 * every wake the constructor calls `migrate`, which reads that row (one query once the layout is
 * current) and runs each later step once, in order.
 *
 * Synchronously, from the constructor, not in `blockConcurrencyWhile`: SQLite calls are synchronous
 * and the runtime delivers no call to an object before its constructor returns, so the steps are
 * exactly as exclusive as they would be behind the input gate, and the modules the constructor
 * builds next can read the current layout at once (the tenant's registration is read right there).
 *
 * Each step runs in its own transaction together with the write of its number, so a step is either
 * applied and counted or not at all. A step that throws rolls back: its tables, columns and rows
 * are as they were and the version row still names the step before it. `migrate` then logs the
 * failure and throws a `MigrationError`, so the constructor throws and every call to the object
 * fails (the Worker answers its generic 500 with a request id; the log line `migration-failed` says
 * which step and why). Nothing is half-migrated and nothing is retried in a loop: the next wake of
 * the object, the next call, runs the failed step again from the start, and a deploy that fixes the
 * step lets it through. Steps already applied are never run again.
 *
 * The row is text (`"5"`): the earlier layouts stored it so, and it is compared as a number, so
 * "10" comes after "9". A stored number above the last step (a deploy rolled back past a migration)
 * runs nothing and is left as it is: a step that only adds leaves the older code working, one that
 * renames does not, so roll a deploy back past a renaming step only with a step that undoes it.
 */
import { log } from "./log";

/** One step of a layout's history. Released steps are never edited or renumbered: add a new one. */
export interface Migration {
  /** Its number: a positive integer, greater than the number of the step before it. */
  readonly version: number;
  /** What it changes, for the logs and the error of a failed step. */
  readonly name: string;
  /** The change: synchronous SQL only (it runs in a transaction); bound values, never spliced. */
  readonly up: (sql: SqlStorage) => void;
}

/** A step failed and was rolled back; the object stays at `storedVersion` until a wake succeeds. */
export class MigrationError extends Error {
  constructor(
    readonly object: string,
    readonly step: Migration,
    readonly storedVersion: number,
    cause: unknown,
  ) {
    super(
      `${object}: storage migration ${step.version} (${step.name}) failed and was rolled back; the storage stays at version ${storedVersion} and the next wake tries again. ${String(cause)}`,
      { cause },
    );
    this.name = "MigrationError";
  }
}

const META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)";

/**
 * The number of the last step applied: 0 for storage no step has touched.
 *
 * @throws Error when the row is not a whole number: guessing would run steps twice or never
 */
export function storedVersion(sql: SqlStorage): number {
  sql.exec(META);
  const value = sql
    .exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'")
    .toArray()[0]?.value;
  if (value === undefined) return 0;
  if (!/^\d+$/.test(value)) throw new Error(`The stored schema version is unreadable: ${value}`);
  return Number(value);
}

/**
 * Brings `storage` up to the last of `steps`: runs each step numbered above the stored version,
 * in order, each in its own transaction with its number. Call it from the constructor.
 *
 * @param storage the object's storage (`ctx.storage`)
 * @param object the class's name, for the logs and the error
 * @param steps the layout's history, numbers strictly increasing
 * @returns the version the storage is at now
 * @throws MigrationError when a step fails (rolled back; see the module's comment)
 * @example
 * migrate(ctx.storage, "Directory", DIRECTORY_MIGRATIONS);
 */
export function migrate(
  storage: DurableObjectStorage,
  object: string,
  steps: readonly Migration[],
): number {
  checkOrder(object, steps);
  const sql = storage.sql;
  let version = storedVersion(sql);
  for (const step of steps) {
    if (step.version <= version) continue;
    try {
      storage.transactionSync(() => {
        step.up(sql);
        sql.exec(
          "INSERT INTO meta (key, value) VALUES ('schema', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
          String(step.version),
        );
      });
    } catch (e) {
      const failed = new MigrationError(object, step, version, e);
      log.error("migration-failed", {
        object,
        step: step.version,
        name: step.name,
        storedVersion: version,
        error: String(e),
      });
      throw failed;
    }
    log.info("migrated", { object, step: step.version, name: step.name });
    version = step.version;
  }
  return version;
}

/** A list out of order is a programming error: it would skip steps on some objects. */
function checkOrder(object: string, steps: readonly Migration[]): void {
  let last = 0;
  for (const { version } of steps) {
    if (!Number.isSafeInteger(version) || version <= last)
      throw new TypeError(
        `${object}: migration numbers must be positive integers in increasing order (${version} after ${last}).`,
      );
    last = version;
  }
}
