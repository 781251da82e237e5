/**
 * @module Numbered migrations of a Durable Object's SQLite storage, run from its constructor. Each
 * step runs once, in one transaction with the write of its number to `meta`, so it is applied and
 * counted or not at all. See docs/design/storage-and-migrations.md.
 */
import { log } from "./log";

/** One step of a layout's history. Released steps are never edited or renumbered: add a new one. */
export interface Migration {
  /** A positive integer, greater than the number of the step before it. */
  readonly version: number;
  /** What it changes, for the logs and the error of a failed step. */
  readonly name: string;
  /** Synchronous SQL only (it runs in a transaction); bound values, never spliced. */
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
 * Runs each of `steps` numbered above the stored version, in order; returns the version now.
 * @throws MigrationError when a step fails (rolled back, logged as `migration-failed`)
 * @example migrate(ctx.storage, "Directory", DIRECTORY_MIGRATIONS);
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
