/**
 * The watchers' roster of an environment (`src/events/watcher/watch-roster.ts`): it answers each
 * watcher its cycle by the cadence formula (`events/watcher/cadence.ts`, unit-tested in
 * `test/events/watcher/polls.unit.test.ts`) over the tenants it holds, so what this proves is the
 * holding: each report counts, active and idle tenants apart, a watcher that leaves is gone, and
 * one that went silent is dropped after three of its cycles. Costs are large so that the budget,
 * not the tests' hour-long floor, sets the cycle. Time is moved by faking `Date` (the object runs
 * in the tests' isolate).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../src/kernel/config";
import { cycles, type Watched } from "../../../src/events/watcher/cadence";

afterEach(() => {
  vi.useRealTimers();
});

let seq = 0;
/** A roster of its own (the gateway names them by environment; the test by a fresh name). */
const roster = () => env.WATCH_ROSTER.get(env.WATCH_ROSTER.idFromName(`roster-test-${seq++}`));

const config = readConfig(env);
const budget = {
  limitPerSecond: config.rateLimitPerSecond,
  share: config.watcherBudgetShare,
  floorMs: config.watcherFloorMs,
};
/** Polls a cycle per tenant: enough that 2 active tenants' cycle is beyond the floor. */
const COST = Math.ceil((budget.floorMs / 1000) * budget.limitPerSecond * budget.share);
const expected = (watched: Watched[]) => cycles(budget, watched);

describe("watch roster", () => {
  it("answers each watcher the cycle of the tenants it holds, active ones first; a watcher that leaves is gone", async () => {
    const r = roster();
    const now = Date.now();
    const a = await r.report("demo:a", COST, now);
    expect(a).toMatchObject({ watched: 1, active: 1, cycleMs: budget.floorMs });
    const b = await r.report("demo:b", COST, now);
    const two = expected([
      { cost: COST, active: true },
      { cost: COST, active: true },
    ]);
    expect(two.active).toBeGreaterThan(budget.floorMs);
    expect(b).toMatchObject({ watched: 2, active: 2, cycleMs: two.active });
    // An idle tenant weighs a quarter and is polled four times less often.
    const c = await r.report("demo:c", COST, null);
    const three = expected([
      { cost: COST, active: true },
      { cost: COST, active: true },
      { cost: COST, active: false },
    ]);
    expect(c).toMatchObject({ watched: 3, active: 2, cycleMs: three.idle });
    expect(c.activeCycleMs).toBe(three.active);
    expect(three.idle).toBe(4 * three.active);
    // A report again replaces the tenant's row, it does not add one.
    expect(await r.report("demo:a", COST, now)).toMatchObject({
      watched: 3,
      cycleMs: three.active,
    });
    await r.leave("demo:b");
    expect(await r.report("demo:a", COST, now)).toMatchObject({ watched: 2, active: 1 });
  });

  it("drops a watcher silent for three of its cycles (at least ten minutes), never one that reports", async () => {
    const r = roster();
    const start = Date.now();
    await r.report("demo:silent", 1, start);
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(start + 9 * 60 * 1000);
    expect(await r.report("demo:busy", 1, Date.now())).toMatchObject({ watched: 2 });
    vi.setSystemTime(start + 3 * budget.floorMs + 11 * 60 * 1000);
    expect(await r.report("demo:busy", 1, Date.now())).toMatchObject({ watched: 1, active: 1 });
  });
});
