import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OrderBook, START_RETRY_MS } from "../../../src/orders/tenant/order-book";
import { coffeeOrder } from "../../fixtures/orders/coffee";
import { applyEvent, type OrderRun } from "../../../src/orders/runs";

const TENANT = env.TENANT;
let seq = 0;
/**
 * The SQLite storage of a tenant object never registered (its constructor has migrated it), under a
 * name no other test uses.
 */
function withSql<R>(run: (sql: SqlStorage) => R | Promise<R>): Promise<R> {
  const stub = TENANT.get(TENANT.idFromName(`test:order-book-${Date.now().toString(36)}-${seq++}`));
  return runInDurableObject(stub, (_i, state) => run(state.storage.sql));
}

const DAY = 86_400_000;
const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

const order = (id: string) => coffeeOrder(id);
/** A paid order's record, changed at `at`, with `patch` applied. */
function run(id: string, at: number, patch: Partial<OrderRun> = {}): OrderRun {
  return {
    ...applyEvent(null, "shopify", { kind: "paid", order: order(id) }, iso(at)).run,
    ...patch,
  };
}

describe("order-book: put and get", () => {
  it("round-trips a record by source and order id; another order or source is null", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      const r = run("1001", T0);
      book.put(r);
      expect(book.get("shopify", "1001")).toEqual(r);
      expect(new OrderBook(sql).get("shopify", "1001")).toEqual(r);
      expect(book.get("shopify", "1002")).toBeNull();
      expect(book.get("stripe", "1001")).toBeNull();
    });
  });

  it("replaces the record of the same order", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      book.put(run("1001", T0));
      book.put(run("1001", T0 + 1000, { state: "running", started: true }));
      expect(book.get("shopify", "1001")).toMatchObject({
        state: "running",
        started: true,
        updatedAt: iso(T0 + 1000),
      });
      expect(sql.exec("SELECT order_id FROM order_runs").toArray()).toHaveLength(1);
    });
  });

  it("refuses a record that does not match its schema, and stores nothing", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      const bad = [
        { ...run("1001", T0), state: "lost" },
        { ...run("1002", T0), attempt: 1.5 },
        { ...run("1003", T0), source: "etsy" },
        { ...run("1004", T0), order: { ...order("1004"), lines: [] } },
      ] as unknown as OrderRun[];
      for (const r of bad) expect(() => book.put(r), r.orderId).toThrow();
      expect(sql.exec("SELECT order_id FROM order_runs").toArray()).toEqual([]);
    });
  });

  it("a stored record that no longer matches its schema is a storage fault: reading it throws", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      book.put(run("1001", T0));
      sql.exec("UPDATE order_runs SET data = json_set(data, '$.state', 'lost')");
      expect(() => book.get("shopify", "1001")).toThrow();
    });
  });
});

describe("order-book: list and pending", () => {
  it("lists newest change first, up to the limit, optionally in one state", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      book.put(run("a", T0, { state: "invoiced", started: true }));
      book.put(run("b", T0 + 3000, { state: "failed", started: true }));
      book.put(run("c", T0 + 1000, { state: "invoiced", started: true }));
      book.put(run("d", T0 + 2000));
      expect(book.list(null, 10).map((r) => r.orderId)).toEqual(["b", "d", "c", "a"]);
      expect(book.list(null, 2).map((r) => r.orderId)).toEqual(["b", "d"]);
      expect(book.list("invoiced", 10).map((r) => r.orderId)).toEqual(["c", "a"]);
      expect(book.list("invoiced", 1).map((r) => r.orderId)).toEqual(["c"]);
      expect(book.list("cancelled", 10)).toEqual([]);
    });
  });

  it("lists as pending exactly the orders with a run still to start, and forgets them once started", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      const waiting = run("waiting", T0);
      book.put(waiting);
      book.put(run("running", T0, { state: "running", started: true }));
      book.put(run("cancelled", T0, { state: "cancelled" }));
      const withRefund = applyEvent(
        run("refund", T0, { state: "invoiced", started: true }),
        "shopify",
        {
          kind: "refunded",
          orderId: "refund",
          refund: { id: "r1", at: iso(T0), lines: [], total: 100 },
        },
        iso(T0),
      ).run;
      book.put(withRefund);
      expect(
        book
          .pending()
          .map((r) => r.orderId)
          .sort(),
      ).toEqual(["refund", "waiting"]);
      book.put({ ...waiting, started: true });
      book.put({
        ...withRefund,
        refunds: withRefund.refunds.map((x) => ({ ...x, started: true })),
      });
      expect(book.pending()).toEqual([]);
    });
  });

  it("stores when each start is due: a retry's time after the change, kept while the run waits, moved by a failed start, gone once started", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      expect(book.startDueAt()).toBeNull();
      const first = run("first", T0);
      book.put(first);
      book.put(run("second", T0 + 1000));
      book.put(run("done", T0 - DAY, { state: "running", started: true }));
      expect(book.startDueAt()).toBe(T0 + START_RETRY_MS);
      // A change to a run still waiting does not push its start back.
      book.put({ ...first, updatedAt: iso(T0 + 60_000) });
      expect(book.startDueAt()).toBe(T0 + START_RETRY_MS);
      book.deferStart("shopify", "first", T0 + 30_000);
      expect(book.startDueAt()).toBe(T0 + 1000 + START_RETRY_MS);
      expect(book.pending().map((r) => r.orderId)).toEqual(["second", "first"]);
      book.put({ ...run("second", T0 + 1000), started: true });
      expect(book.startDueAt()).toBe(T0 + 30_000);
      book.put({ ...first, started: true });
      expect(book.startDueAt()).toBeNull();
      // Nothing left to start: a deferral changes nothing.
      book.deferStart("shopify", "first", T0);
      expect(book.startDueAt()).toBeNull();
    });
  });

  it("hands out pending orders in batches of at most 50", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      for (let i = 0; i < 60; i++) book.put(run(`o${i}`, T0 + i));
      expect(book.pending()).toHaveLength(50);
    });
  });
});

describe("order-book: deliveries", () => {
  it("is null for a new event, and remembers the signed time (0 when unsigned) per source", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      expect(book.lastDelivery("shopify", "evt-1")).toBeNull();
      book.remember("shopify", "evt-1", 1_772_359_200, T0);
      book.remember("shopify", "evt-2", null, T0);
      expect(book.lastDelivery("shopify", "evt-1")).toBe(1_772_359_200);
      expect(book.lastDelivery("shopify", "evt-2")).toBe(0);
      expect(book.lastDelivery("stripe", "evt-1")).toBeNull();
      book.remember("shopify", "evt-1", 1_772_359_260, T0 + 1000);
      expect(book.lastDelivery("shopify", "evt-1")).toBe(1_772_359_260);
    });
  });

  it("forgets deliveries seen more than 7 days before the latest one, and keeps those of exactly 7 days", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      book.remember("shopify", "old", 1, T0);
      book.remember("stripe", "older", 2, T0 - 1);
      book.remember("shopify", "newer", 3, T0 + 7 * DAY);
      expect(book.lastDelivery("shopify", "old")).toBe(1);
      expect(book.lastDelivery("stripe", "older")).toBeNull();
      book.remember("shopify", "newest", 4, T0 + 7 * DAY + 1);
      expect(book.lastDelivery("shopify", "old")).toBeNull();
      expect(book.lastDelivery("shopify", "newer")).toBe(3);
      expect(book.lastDelivery("shopify", "newest")).toBe(4);
    });
  });
});

describe("order-book: retention", () => {
  const RETENTION = 400 * DAY;

  it("purges runs untouched for longer than 400 days and deliveries seen over 7 days ago, keeping the rest", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      const now = T0 + RETENTION + 10 * DAY;
      book.put(run("old", T0, { state: "settled", started: true }));
      book.put(run("failed-old", T0 + 1000, { state: "failed", started: true }));
      book.put(run("young", now - RETENTION, { state: "settled", started: true }));
      // Still waiting for its Workflow instance: the alarm keeps starting it, so it is never
      // purged.
      book.put(run("waiting", T0));
      book.remember("stripe", "evt-old", 1, now - 7 * DAY - 1);
      book.remember("stripe", "evt-young", 2, now - 7 * DAY);
      book.purge(now);
      expect(
        book
          .list(null, 10)
          .map((r) => r.orderId)
          .sort(),
      ).toEqual(["waiting", "young"]);
      expect(book.lastDelivery("stripe", "evt-old")).toBeNull();
      expect(book.lastDelivery("stripe", "evt-young")).toBe(2);
      book.purge(now);
      expect(book.list(null, 10)).toHaveLength(2);
    });
  });

  it("is due at the earliest end of retention of a purgeable run or a delivery; null when there is nothing", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      expect(book.dueAt()).toBeNull();
      book.put(run("waiting", T0));
      expect(book.dueAt()).toBeNull();
      book.put(run("done", T0 + DAY, { state: "settled", started: true }));
      expect(book.dueAt()).toBe(T0 + DAY + RETENTION);
      book.remember("shopify", "evt-1", null, T0 + 2 * DAY);
      expect(book.dueAt()).toBe(T0 + 9 * DAY);
    });
  });

  it("purges a batch at a time, so one alarm stays short", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      for (let i = 0; i < 510; i++) book.remember("shopify", `evt-${i}`, null, T0);
      book.purge(T0 + 8 * DAY);
      expect(sql.exec("SELECT COUNT(*) AS n FROM webhook_deliveries").one()).toEqual({ n: 10 });
      expect(book.dueAt()).toBe(T0 + 7 * DAY);
    });
  });

  it("finds what to purge through an index, never by scanning a table", async () => {
    await withSql((sql) => {
      const plan = (query: string, ...params: SqlStorageValue[]) =>
        sql
          .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, ...params)
          .toArray()
          .map((r) => r.detail)
          .join("; ");
      const runs = plan(
        "SELECT rowid FROM order_runs WHERE pending = 0 AND updated_at < ? LIMIT 500",
        iso(T0),
      );
      expect(runs).toMatch(/USING (COVERING )?INDEX order_runs_purge/);
      expect(plan("SELECT MIN(updated_at) FROM order_runs WHERE pending = 0")).toMatch(
        /USING (COVERING )?INDEX order_runs_purge/,
      );
      const deliveries = plan(
        "SELECT rowid FROM webhook_deliveries WHERE seen_at < ? LIMIT 500",
        T0,
      );
      expect(deliveries).toMatch(/USING (COVERING )?INDEX webhook_deliveries_seen/);
      expect(`${runs}; ${deliveries}`).not.toMatch(/^SCAN|; SCAN/);
    });
  });
});

describe("order-book: clear", () => {
  it("removes every order and delivery", async () => {
    await withSql((sql) => {
      const book = new OrderBook(sql);
      book.put(run("1001", T0));
      book.remember("shopify", "evt-1", 1, T0);
      book.clear();
      expect(book.get("shopify", "1001")).toBeNull();
      expect(book.list(null, 10)).toEqual([]);
      expect(book.pending()).toEqual([]);
      expect(book.lastDelivery("shopify", "evt-1")).toBeNull();
      expect(sql.exec("SELECT * FROM webhook_deliveries").toArray()).toEqual([]);
    });
  });
});
