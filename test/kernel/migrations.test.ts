/**
 * The numbered migrations every stateful object uses (`src/kernel/migrations.ts`) and the guarded
 * column changes its steps use (`src/kernel/columns.ts`), on storage no step has touched: a
 * `RateGovernor` object's, which stores nothing of its own, under a name no other test uses.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addColumn, hasColumn, renameColumn } from "../../src/kernel/columns";
import {
  migrate,
  MigrationError,
  storedVersion,
  type Migration,
} from "../../src/kernel/migrations";

const GOVERNORS = env.RATE_GOVERNOR;
let seq = 0;

/** Runs `run` with the storage of an object no test has used. */
function withStorage<R>(run: (storage: DurableObjectStorage) => R | Promise<R>): Promise<R> {
  const stub = GOVERNORS.get(
    GOVERNORS.idFromName(`test:migrations-${Date.now().toString(36)}-${seq++}`),
  );
  return runInDurableObject(stub, (_i, state) => run(state.storage));
}

const all = (sql: SqlStorage, query: string) => sql.exec(query).toArray();
const versionRow = (sql: SqlStorage) => all(sql, "SELECT value FROM meta WHERE key = 'schema'");
/** Stores `value` as the version row, as an older build of the object left it. */
function leaveVersionRow(sql: SqlStorage, value: string): void {
  sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", value);
}

/** Two steps: a table of prices in øre with two rows, then a column in kroner backfilled. */
const PRICES: Migration = {
  version: 1,
  name: "prices",
  up: (sql) => {
    sql.exec("CREATE TABLE prices (sku TEXT PRIMARY KEY, ore INTEGER NOT NULL)");
    sql.exec("INSERT INTO prices (sku, ore) VALUES ('a', 12500), ('b', 990)");
  },
};
const KRONER: Migration = {
  version: 2,
  name: "prices.kroner",
  up: (sql) => {
    addColumn(sql, "prices", "kroner", "REAL");
    sql.exec("UPDATE prices SET kroner = ore / 100.0");
  },
};

describe("migrations: numbered steps", () => {
  it("runs each step once, in order, and stores the last number as the version row", async () => {
    await withStorage((storage) => {
      const ran: number[] = [];
      const step = (version: number): Migration => ({
        version,
        name: `step ${version}`,
        up: () => void ran.push(version),
      });
      const steps = [step(1), step(2), step(5)];
      expect(migrate(storage, "Test", steps)).toBe(5);
      expect(migrate(storage, "Test", steps)).toBe(5);
      expect(ran).toEqual([1, 2, 5]);
      expect(versionRow(storage.sql)).toEqual([{ value: "5" }]);
      // A step added later is the only one the next wake runs.
      expect(migrate(storage, "Test", [...steps, step(6)])).toBe(6);
      expect(ran).toEqual([1, 2, 5, 6]);
    });
  });

  it("reads an older text version row as a number: at '9', step 10 runs and step 9 does not", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      expect(storedVersion(sql)).toBe(0);
      leaveVersionRow(sql, "9");
      const ran: number[] = [];
      const steps = [9, 10].map((version) => ({
        version,
        name: `step ${version}`,
        up: () => void ran.push(version),
      }));
      expect(migrate(storage, "Test", steps)).toBe(10);
      expect(ran).toEqual([10]);
      expect(versionRow(sql)).toEqual([{ value: "10" }]);
    });
  });

  it("adds a column and backfills it from the existing rows", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      migrate(storage, "Test", [PRICES]);
      migrate(storage, "Test", [PRICES, KRONER]);
      expect(all(sql, "SELECT sku, ore, kroner FROM prices ORDER BY sku")).toEqual([
        { sku: "a", ore: 12500, kroner: 125 },
        { sku: "b", ore: 990, kroner: 9.9 },
      ]);
      expect(storedVersion(sql)).toBe(2);
    });
  });

  it("rolls a failing step back whole: its column and rows are undone, the version row stays, later steps wait; the next run after a fix passes", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      const later = { version: 3, name: "later", up: () => sql.exec("CREATE TABLE later (x)") };
      const broken: Migration = {
        ...KRONER,
        up: (s) => {
          KRONER.up(s);
          s.exec("INSERT INTO prices (sku, ore) VALUES ('c', 1)");
          throw new Error("disk full (test)");
        },
      };
      migrate(storage, "Test", [PRICES]);
      let error: unknown = null;
      try {
        migrate(storage, "Test", [PRICES, broken, later]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(MigrationError);
      expect(String(error)).toMatch(
        /Test: storage migration 2 \(prices\.kroner\) failed and was rolled back; the storage stays at version 1 .*disk full \(test\)/,
      );
      expect(hasColumn(sql, "prices", "kroner")).toBe(false);
      expect(all(sql, "SELECT sku FROM prices ORDER BY sku")).toEqual([{ sku: "a" }, { sku: "b" }]);
      expect(storedVersion(sql)).toBe(1);
      expect(all(sql, "SELECT name FROM sqlite_master WHERE name = 'later'")).toEqual([]);
      // The next wake, with the step fixed, takes it and the one after.
      expect(migrate(storage, "Test", [PRICES, KRONER, later])).toBe(3);
      expect(hasColumn(sql, "prices", "kroner")).toBe(true);
    });
  });

  it("leaves storage ahead of the list as it is (a deploy rolled back)", async () => {
    await withStorage((storage) => {
      leaveVersionRow(storage.sql, "7");
      expect(migrate(storage, "Test", [PRICES, KRONER])).toBe(7);
      expect(storedVersion(storage.sql)).toBe(7);
      expect(all(storage.sql, "SELECT name FROM sqlite_master WHERE name = 'prices'")).toEqual([]);
    });
  });

  it("refuses an unreadable version row and a list out of order, running nothing", async () => {
    await withStorage((storage) => {
      expect(() => migrate(storage, "Test", [KRONER, PRICES])).toThrow(TypeError);
      expect(() => migrate(storage, "Test", [PRICES, { ...KRONER, version: 1 }])).toThrow(
        /increasing order/,
      );
      leaveVersionRow(storage.sql, "v5");
      expect(() => migrate(storage, "Test", [PRICES])).toThrow(/unreadable: v5/);
      expect(all(storage.sql, "SELECT name FROM sqlite_master WHERE name = 'prices'")).toEqual([]);
    });
  });
});

describe("columns: guarded changes", () => {
  it("adds a column once; a second add is a no-op, not an error", async () => {
    await withStorage(({ sql }) => {
      sql.exec("CREATE TABLE t (a INTEGER)");
      expect(addColumn(sql, "t", "b", "INTEGER NOT NULL DEFAULT 0")).toBe(true);
      expect(addColumn(sql, "t", "b", "INTEGER NOT NULL DEFAULT 0")).toBe(false);
      expect(hasColumn(sql, "t", "b")).toBe(true);
    });
  });

  it("renames a column with its data; once renamed, renaming again does nothing", async () => {
    await withStorage(({ sql }) => {
      sql.exec("CREATE TABLE t (old_name TEXT)");
      sql.exec("INSERT INTO t VALUES ('kept')");
      expect(renameColumn(sql, "t", "old_name", "new_name")).toBe(true);
      expect(renameColumn(sql, "t", "old_name", "new_name")).toBe(false);
      expect(all(sql, "SELECT new_name FROM t")).toEqual([{ new_name: "kept" }]);
    });
  });

  it("refuses a table or column name that is not a plain identifier", async () => {
    await withStorage(({ sql }) => {
      sql.exec("CREATE TABLE t (a INTEGER)");
      expect(() => addColumn(sql, "t", "b; DROP TABLE t", "INTEGER")).toThrow(TypeError);
      expect(() => renameColumn(sql, "t", "a", "x y")).toThrow(TypeError);
      expect(hasColumn(sql, "t", "a")).toBe(true);
    });
  });
});
