/**
 * The request log's module (`src/request-log/tenant-rows.ts`) over a fresh object's storage:
 * its bound (the 1,001st call drops the oldest; the watcher's calls have their own, smaller bound),
 * its age limit, its filters, the counters it keeps and its clearing (the client key replaced).
 * Rows are written through the module directly, so a thousand of them cost no HTTP; the face the
 * gateway writes through (`Tenant.callLog`) is tested last: when it sets the alarm, and that it
 * drops rows for a tenant that is not registered.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import type { Tenant } from "../../src/tenant/tenant-object";
import { tenantStub, type TenantName } from "../../src/kernel/stubs";
import { tenant as registeredTenant } from "../helpers/gateway";
import { describe, expect, it } from "vitest";
import {
  REQUEST_LOG_MS,
  REQUEST_LOG_ROWS,
  RequestLog,
  WATCHER_LOG_ROWS,
  type CallerKind,
  type LoggedCall,
} from "../../src/request-log/tenant-rows";

let seq = 0;
const T0 = Date.parse("2026-03-01T10:00:00.000Z");

/** `run` with a request log over a fresh tenant object's (migrated) storage. */
function withLog<R>(run: (log: RequestLog) => R): Promise<R> {
  const ns = env.TENANT;
  const stub = ns.get(ns.idFromName(`test:request-log-${Date.now().toString(36)}-${seq++}`));
  return runInDurableObject(stub, (_i, state) => run(new RequestLog(state.storage.sql, () => T0)));
}

const call = (n: number, over: Partial<LoggedCall> = {}, kind: CallerKind = "key"): LoggedCall => ({
  requestId: `req-${n}`,
  at: T0 + n,
  method: "GET",
  path: "/Customers",
  query: [],
  status: 200,
  apiStatus: 200,
  apiError: null,
  attempts: 1,
  waitedMs: 0,
  durationMs: 12,
  caller: { kind, id: kind === "key" ? "0123abcd" : null },
  body: null,
  ...over,
});

describe("request log: bound", () => {
  it("keeps the last 1,000 calls: the 1,001st drops the oldest", async () => {
    const ids = await withLog((log) => {
      for (let n = 0; n <= REQUEST_LOG_ROWS; n++) log.record(call(n));
      return log.list(null, 2000, null, T0).map((r) => r.requestId);
    });
    expect(ids).toHaveLength(REQUEST_LOG_ROWS);
    expect(ids[0]).toBe(`req-${REQUEST_LOG_ROWS}`);
    expect(ids.at(-1)).toBe("req-1");
  });

  it("bounds the watcher's calls apart, so they never push a caller's calls out", async () => {
    const kinds = await withLog((log) => {
      log.record(call(0));
      for (let n = 1; n <= WATCHER_LOG_ROWS + 5; n++) log.record(call(n, {}, "watcher"));
      return log.list(null, 2000, null, T0).map((r) => r.caller.kind);
    });
    expect(kinds.filter((k) => k === "watcher")).toHaveLength(WATCHER_LOG_ROWS);
    expect(kinds).toContain("key");
  });

  it("shows nothing older than 7 days, and the alarm's purge drops it", async () => {
    const left = await withLog((log) => {
      log.record(call(0));
      log.record(call(1, { at: T0 + REQUEST_LOG_MS + 10 }));
      const now = T0 + REQUEST_LOG_MS + 20;
      const shown = log.list(null, 10, null, now).length;
      expect(log.dueAt()).toBe(T0 + REQUEST_LOG_MS);
      log.purge(now);
      return { shown, dueAt: log.dueAt() };
    });
    expect(left).toEqual({ shown: 1, dueAt: T0 + 2 * REQUEST_LOG_MS + 10 });
  });
});

describe("request log: the lanes' bounds over a long mixed run", () => {
  it("keeps each lane's newest calls exactly, across age purges and clears, as a model of the log does", async () => {
    // A fixed pseudo-random sequence (a linear congruential generator): the run is the same every
    // time.
    let state = 26;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const seen = await withLog((log) => {
      /** The model: each lane's calls, oldest first, as the log should hold them. */
      const model: { n: number; at: number; watcher: boolean }[] = [];
      const differ: string[] = [];
      /** The lanes whose bound was reached (a call past it dropped the oldest). */
      const trimmed = new Set<boolean>();
      const check = (step: number, now: number) => {
        const held = log.list(null, 5000, null, now).map((r) => r.requestId);
        const want = model
          .filter((m) => m.at >= now - REQUEST_LOG_MS)
          .map((m) => `req-${m.n}`)
          .reverse();
        if (JSON.stringify(held) !== JSON.stringify(want)) differ.push(`step ${step}`);
        if (log.isEmpty() !== (model.length === 0)) differ.push(`isEmpty at step ${step}`);
      };
      for (let n = 0; n < 2600; n++) {
        const watcher = next() < 0.3;
        // A few calls are dated a week back, so the age purge has something to drop.
        const at = next() < 0.05 ? T0 - REQUEST_LOG_MS - 1 : T0 + n;
        log.record(call(n, { at }, watcher ? "watcher" : "key"));
        model.push({ n, at, watcher });
        for (const lane of [true, false]) {
          const mine = model.filter((m) => m.watcher === lane);
          const over = mine.length - (lane ? WATCHER_LOG_ROWS : REQUEST_LOG_ROWS);
          if (over > 0) trimmed.add(lane);
          for (const gone of mine.slice(0, Math.max(0, over))) model.splice(model.indexOf(gone), 1);
        }
        if (n === 1200 || n === 2300) {
          log.purge(T0);
          for (const old of model.filter((m) => m.at < T0)) model.splice(model.indexOf(old), 1);
        }
        if (n === 1800) {
          log.clearCalls();
          model.length = 0;
        }
        if (n % 97 === 0 || n === 1800) check(n, T0 - 2 * REQUEST_LOG_MS);
      }
      check(2600, T0 - 2 * REQUEST_LOG_MS);
      return { differ, trimmed: trimmed.size };
    });
    expect(seen.differ).toEqual([]);
    // Not vacuous: both lanes' bounds were reached and dropped calls.
    expect(seen.trimmed).toBe(2);
  });
});

describe("request log: filters and counters", () => {
  it("filters by exact status and class, pages with a cursor, counts calls, waits and refusals", async () => {
    const seen = await withLog((log) => {
      log.record(call(1, { status: 404, apiStatus: 404, apiError: "{}" }));
      log.record(call(2, { status: 500, apiStatus: 500, attempts: 1, waitedMs: 30 }));
      log.record(call(3, { status: 503, apiStatus: null, attempts: 0 }));
      log.record(call(4, { attempts: 2 }));
      const first = log.list(null, 2, null, T0);
      return {
        fourxx: log.list({ class: 4 }, 10, null, T0).map((r) => r.requestId),
        exact: log.list({ exact: 503 }, 10, null, T0).map((r) => r.requestId),
        page: first.map((r) => r.requestId),
        next: log.list(null, 10, first.at(-1)?.seq ?? null, T0).map((r) => r.requestId),
        counters: log.counters(),
      };
    });
    expect(seen.fourxx).toEqual(["req-1"]);
    expect(seen.exact).toEqual(["req-3"]);
    expect(seen.page).toEqual(["req-4", "req-3"]);
    expect(seen.next).toEqual(["req-2", "req-1"]);
    expect(seen.counters).toEqual({ upstreamCalls: 4, waits: 1, refusals: 1, since: T0 });
  });

  it("count() moves the counters as a row would and stores no row (REQUEST_LOG=counters)", async () => {
    const seen = await withLog((log) => {
      log.count({ status: 200, apiStatus: 200, attempts: 2, waitedMs: 5 });
      log.count({ status: 503, apiStatus: null, attempts: 0, waitedMs: 0 });
      return { rows: log.list(null, 10, null, T0), counters: log.counters() };
    });
    expect(seen.rows).toEqual([]);
    expect(seen.counters).toEqual({ upstreamCalls: 2, waits: 1, refusals: 1, since: T0 });
  });

  it("keeps since at the first call counted while the counters move, and a counter left at 0 reads 0", async () => {
    const ns = env.TENANT;
    const stub = ns.get(ns.idFromName(`test:request-log-since-${Date.now().toString(36)}`));
    const seen = await runInDurableObject(stub, (_i, state) => {
      let now = T0;
      const log = new RequestLog(state.storage.sql, () => now);
      log.record(call(1));
      const first = log.counters();
      now = T0 + 60_000;
      log.record(call(2, { attempts: 3, waitedMs: 7 }));
      log.count({ status: 200, apiStatus: 200, attempts: 1, waitedMs: 0 });
      return { first, later: log.counters() };
    });
    expect(seen.first).toEqual({ upstreamCalls: 1, waits: 0, refusals: 0, since: T0 });
    expect(seen.later).toEqual({ upstreamCalls: 5, waits: 1, refusals: 0, since: T0 });
  });

  it("refuses a row that would carry more than its caps", async () => {
    await withLog((log) => {
      expect(() => log.record(call(1, { apiError: "x".repeat(5000) }))).toThrow();
      expect(log.list(null, 10, null, T0)).toEqual([]);
    });
  });
});

describe("request log: clearing", () => {
  it("clearCalls drops every row of both lanes, answers how many, and keeps the counters", async () => {
    const seen = await withLog((log) => {
      log.record(call(1, { status: 400, apiStatus: 400, body: '{"Name":"Kari"}' }));
      log.record(call(2));
      log.record(call(3, {}, "watcher"));
      return {
        cleared: log.clearCalls(),
        left: log.list(null, 10, null, T0),
        counters: log.counters(),
        again: log.clearCalls(),
      };
    });
    expect(seen.cleared).toBe(3);
    expect(seen.left).toEqual([]);
    expect(seen.counters).toMatchObject({ upstreamCalls: 3 });
    expect(seen.again).toBe(0);
  });
});

describe("request log: the face", () => {
  it("the first row of an empty log sets the alarm; later rows write none", async () => {
    const t = await registeredTenant();
    const now = Date.now();
    const seen = await runInDurableObject(
      tenantStub(env, t.name as TenantName),
      async (instance: Tenant, state) => {
        const face = instance.forCallLog();
        // Whatever the registration set (the token's renewal), gone: to see what the rows write.
        await state.storage.deleteAlarm();
        await face.record(call(1, { at: now }));
        const first = await state.storage.getAlarm();
        await state.storage.deleteAlarm();
        await face.record(call(2, { at: now + 1000 }));
        return { first, second: await state.storage.getAlarm() };
      },
    );
    expect(seen.first).not.toBeNull();
    expect(seen.second).toBeNull();
  });

  it("drops a row for a tenant that is not registered (one removed before its row arrived)", async () => {
    const stub = env.TENANT.get(
      env.TENANT.idFromName(`test:request-log-unregistered-${Date.now().toString(36)}`),
    );
    const left = await runInDurableObject(stub, async (instance: Tenant, state) => {
      const face = instance.forCallLog();
      await face.record(call(1, { at: Date.now() }));
      face.count({ status: 200, apiStatus: 200, attempts: 1, waitedMs: 0 });
      return {
        rows: state.storage.sql.exec("SELECT COUNT(*) AS n FROM request_log").one().n,
        counters: state.storage.sql.exec("SELECT COUNT(*) AS n FROM call_counters").one().n,
        alarm: await state.storage.getAlarm(),
      };
    });
    expect(left).toEqual({ rows: 0, counters: 0, alarm: null });
  });
});
