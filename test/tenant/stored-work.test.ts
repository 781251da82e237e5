/**
 * The Tenant's stored work registry (`src/tenant/stored-work.ts`): a module registered once is
 * armed and run by the object's one alarm without the alarm naming it. Run against a real tenant
 * object's storage, so the alarm read back is the one the runtime would fire.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RunOwner } from "../../src/orders/tenant/order-desk";
import { purges, StoredWorks, type StoredWork } from "../../src/tenant/stored-work";

const TENANT = env.TENANT;
const DAY = 86_400_000;
const OWNER: RunOwner = { tenant: "demo:stored-work", registration: "r1" };

/** A module's stored work whose due time the test sets, recording each run. */
function fakeWork(name: string, runs: string[]): StoredWork & { due: number | null } {
  const work = {
    due: null as number | null,
    dueAt: () => work.due,
    runDue: (now: number, owner: RunOwner) => {
      runs.push(`${name}@${now}:${owner.tenant}`);
      work.due = null;
    },
  };
  return work;
}

describe("stored work: registered once, armed and run by the one alarm", () => {
  it("arms the earliest due time of every registered work, runs each in order, and clears the alarm when none is due", async () => {
    const stub = TENANT.get(TENANT.idFromName(`test:stored-work-${Date.now().toString(36)}`));
    await runInDurableObject(stub, async (_i, state) => {
      const now = Date.now();
      const runs: string[] = [];
      const later = fakeWork("later", runs);
      const sooner = fakeWork("sooner", runs);
      const idle = fakeWork("idle", runs);
      const works = new StoredWorks(state.storage).register(later, sooner, idle);
      later.due = now + 3 * DAY;
      sooner.due = now + 2 * DAY;

      await works.arm();
      expect(await state.storage.getAlarm()).toBe(now + 2 * DAY);

      await works.runDue(now + 3 * DAY, OWNER);
      // Every work runs, in the order registered (each does only what is due), and the alarm is
      // re-armed from what is left: nothing.
      expect(runs).toEqual([
        `later@${now + 3 * DAY}:demo:stored-work`,
        `sooner@${now + 3 * DAY}:demo:stored-work`,
        `idle@${now + 3 * DAY}:demo:stored-work`,
      ]);
      expect(await state.storage.getAlarm()).toBeNull();
    });
  });

  it("a module that only purges is armed at its retention's end and purged by the run", async () => {
    const stub = TENANT.get(TENANT.idFromName(`test:stored-work-purge-${Date.now().toString(36)}`));
    await runInDurableObject(stub, async (_i, state) => {
      const now = Date.now();
      const purged: number[] = [];
      let oldest: number | null = now + DAY;
      const module = {
        dueAt: () => oldest,
        purge: (at: number) => {
          purged.push(at);
          if (oldest !== null && oldest <= at) oldest = null;
        },
      };
      const works = new StoredWorks(state.storage).register(purges(module));
      await works.arm();
      expect(await state.storage.getAlarm()).toBe(now + DAY);
      // An early run (the alarm fired for another module) purges nothing due yet and keeps the
      // alarm.
      await works.runDue(now, OWNER);
      expect(purged).toEqual([now]);
      expect(await state.storage.getAlarm()).toBe(now + DAY);
      await works.runDue(now + DAY, OWNER);
      expect(purged).toEqual([now, now + DAY]);
      expect(await state.storage.getAlarm()).toBeNull();
    });
  });
});
