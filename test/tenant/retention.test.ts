/**
 * Per-tenant retention (issue 11): the tenant object's single alarm purges order runs untouched for
 * longer than their retention and delivery records older than their window, through an index, and
 * keeps everything younger. Driven through a registered tenant and `runDurableObjectAlarm`; the
 * ages are set in storage, so no test waits for time to pass. And the object's database size, as
 * operators read it (`storageBytes`), which the soak reads at its start and end.
 */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpus, shopifyCancelled } from "../fixtures/orders/shopify";
import { ADMIN, gw } from "../helpers/gateway";
import { shopTenant } from "../helpers/orders";

const TENANT = env.TENANT;
const DAY = 86_400_000;
const [shop] = corpus();
if (!shop) throw new Error("empty corpus");

/** The tenant's `storageBytes` as operators read it in `GET /admin/tenants`. */
async function listedBytes(name: string): Promise<number | undefined> {
  const res = await gw("/admin/tenants", { headers: ADMIN });
  const { tenants } = (await res.json()) as { tenants: { tenant: string; storageBytes: number }[] };
  return tenants.find((x) => x.tenant === name)?.storageBytes;
}

describe("retention: the alarm purges old order runs and delivery records", () => {
  it("removes a run untouched for over 400 days and deliveries seen over 7 days ago; keeps the younger ones", async () => {
    const t = await shopTenant();
    // Cancellations: each is recorded as a run that never starts, so no Workflow is involved.
    for (const [id, eventId] of [
      [9_500_001, "evt-old"],
      [9_500_002, "evt-new"],
    ] as const) {
      expect(
        (
          await t.send("shopify", shopifyCancelled({ ...shop.payload, id }), {
            topic: "orders/cancelled",
            eventId,
          })
        ).status,
      ).toBe(202);
    }
    const stub = TENANT.get(TENANT.idFromName(t.name));
    const now = Date.now();
    await runInDurableObject(stub, async (_i, state) => {
      const sql = state.storage.sql;
      sql.exec(
        "UPDATE order_runs SET updated_at = ? WHERE order_id = '9500001'",
        new Date(now - 401 * DAY).toISOString(),
      );
      sql.exec(
        "UPDATE webhook_deliveries SET seen_at = ? WHERE event_id = 'evt-old'",
        now - 8 * DAY,
      );
      // Whatever else the alarm is for, it is due now.
      await state.storage.setAlarm(now);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await t.orders("/shopify/9500001")).status).toBe(404);
    expect((await t.orders("/shopify/9500002")).status).toBe(200);
    const left = await runInDurableObject(stub, async (_i, state) => ({
      events: state.storage.sql
        .exec<{ event_id: string }>("SELECT event_id FROM webhook_deliveries ORDER BY event_id")
        .toArray()
        .map((r) => r.event_id),
      alarm: await state.storage.getAlarm(),
    }));
    expect(left.events).toEqual(["evt-new"]);
    // Re-armed: the remaining records still have a purge ahead of them.
    expect(left.alarm).not.toBeNull();
  });
});

describe("storage: what the tenant's object keeps, as operators see it", () => {
  it("lists the object's database size, which grows with the runs it records", async () => {
    const t = await shopTenant();
    const stub = TENANT.get(TENANT.idFromName(t.name));
    const size = () =>
      runInDurableObject(stub, async (_i, state) => state.storage.sql.databaseSize);
    const before = await listedBytes(t.name);
    expect(before).toBe(await size());
    for (let i = 0; i < 40; i++)
      expect(
        (
          await t.send("shopify", shopifyCancelled({ ...shop.payload, id: 9_600_000 + i }), {
            topic: "orders/cancelled",
            eventId: `evt-size-${i}`,
          })
        ).status,
      ).toBe(202);
    const after = await listedBytes(t.name);
    expect(after).toBe(await size());
    expect(after).toBeGreaterThan(before ?? Infinity);
  });
});
