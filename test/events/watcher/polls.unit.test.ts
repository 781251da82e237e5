/**
 * What the watcher polls (`src/events/watcher/polls.ts`), its times (`times.ts`) and its cadence
 * (`cadence.ts`): only what some endpoint takes, the creation filter when only creations are
 * wanted, the read's start with its lookback and floor, the filter's documented format, and the
 * cycle formula with active tenants first, spending at most the share.
 */
import { describe, expect, it } from "vitest";
import {
  ACTIVE_WINDOW_MS,
  cycles,
  IDLE_FACTOR,
  isActive,
  PAUSED_CYCLE_MS,
} from "../../../src/events/watcher/cadence";
import { plan } from "../../../src/events/watcher/polls";
import { filterTime, LOOKBACK_MS, stampOf, startOf } from "../../../src/events/watcher/times";

describe("watcher: what is polled", () => {
  it("polls only the resources some type is wanted for, nothing for the runs' own events", () => {
    expect(plan(["order.settled", "payout.reconciled"])).toEqual([]);
    expect(plan([])).toEqual([]);
    expect(plan(["outgoing_invoice.paid"])).toEqual([
      { poll: "invoice-balances", mode: "changed" },
    ]);
    expect(plan(["outgoing_invoice.created"])).toEqual([
      { poll: "invoices-sent", mode: "changed" },
    ]);
    expect(plan(["*"]).map((p) => p.poll)).toEqual([
      "customers",
      "products",
      "invoice-balances",
      "invoices-sent",
    ]);
  });

  it("uses the creation filter when only creations are wanted, the change filter otherwise", () => {
    expect(plan(["customer.created", "product.created"])).toEqual([
      { poll: "customers", mode: "created" },
      { poll: "products", mode: "created" },
    ]);
    expect(plan(["customer.created", "customer.updated"])).toEqual([
      { poll: "customers", mode: "changed" },
    ]);
    expect(plan(["*"]).every((p) => p.mode === "changed")).toBe(true);
  });
});

describe("watcher: times", () => {
  it("reads back LOOKBACK_MS before the latest stamp seen, never before the floor; goes on where a cycle stopped", () => {
    const floor = Date.UTC(2026, 10, 26, 10);
    expect(startOf({ floor, seen: null, resume: null })).toEqual({
      since: floor,
      page: 1,
      from: floor,
    });
    expect(startOf({ floor, seen: floor + 10_000, resume: null }).since).toBe(floor);
    const seen = floor + LOOKBACK_MS + 5000;
    expect(startOf({ floor, seen, resume: null })).toEqual({
      since: floor + 5000,
      page: 1,
      from: floor + 5000,
    });
    const resume = { since: seen - 1, page: 2, from: floor };
    expect(startOf({ floor, seen, resume })).toBe(resume);
  });

  it("writes the filter's time in the documented format and reads the API's stamps", () => {
    const t = Date.UTC(2021, 8, 25, 8, 3, 0, 123);
    expect(filterTime(t)).toBe("2021-09-25 08:03:00.123000+00:00");
    expect(stampOf("2021-09-25 08:03:00.123456+00:00")).toBe(t);
    expect(stampOf("2021-09-25T08:03:00.123Z")).toBe(t);
    expect(stampOf(null)).toBeNull();
    expect(stampOf("soon")).toBeNull();
  });
});

describe("watcher: cadence", () => {
  const budget = { limitPerSecond: 10, share: 0.2, floorMs: 30_000 };
  const tenants = (n: number, active: boolean, cost = 4) =>
    Array.from({ length: n }, () => ({ cost, active }));
  /** Calls a second the watchers spend, every tenant polled at its cycle. */
  const spend = (w: { cost: number; active: boolean }[]) => {
    const c = cycles(budget, w);
    return w.reduce((n, t) => n + t.cost / ((t.active ? c.active : c.idle) / 1000), 0);
  };

  it("gives 20 active tenants of 4 polls a 40 s cycle, 100 a 200 s one: 2 N seconds at the default share", () => {
    expect(cycles(budget, tenants(20, true)).active).toBe(40_000);
    expect(cycles(budget, tenants(100, true)).active).toBe(200_000);
    expect(cycles(budget, tenants(150, true)).active).toBe(300_000);
    // A few tenants: the floor.
    expect(cycles(budget, tenants(3, true)).active).toBe(30_000);
  });

  it("with a share of 0 (polling off) waits PAUSED_CYCLE_MS, never divides by nothing", () => {
    const off = cycles({ ...budget, share: 0 }, tenants(20, true));
    expect(off).toEqual({ active: PAUSED_CYCLE_MS, idle: PAUSED_CYCLE_MS });
  });

  it("polls idle tenants IDLE_FACTOR times less often, and never spends more than the share", () => {
    const mixed = [...tenants(10, true), ...tenants(40, false)];
    const c = cycles(budget, mixed);
    expect(c.idle).toBe(IDLE_FACTOR * c.active);
    // 10 active and 40 idle cost as much as 20 active: the active ones keep 40 s.
    expect(c.active).toBe(40_000);
    for (const w of [mixed, tenants(20, true), tenants(200, false), tenants(5, true)])
      expect(spend(w)).toBeLessThanOrEqual(budget.limitPerSecond * budget.share + 1e-9);
    // With the budget binding, it is spent whole.
    expect(spend(mixed)).toBeCloseTo(2, 5);
  });

  it("counts a tenant active for an hour after its last write, delivery or change found", () => {
    const now = Date.now();
    expect(isActive(now - ACTIVE_WINDOW_MS + 1, now)).toBe(true);
    expect(isActive(now - ACTIVE_WINDOW_MS, now)).toBe(false);
    expect(isActive(null, now)).toBe(false);
  });
});
