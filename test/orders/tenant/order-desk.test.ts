/**
 * Starting runs (`orders/tenant/order-desk.ts`): concurrent intakes of a burst create each run's
 * Workflow instance once. The engine is a counting stand-in here, so the test sees every create
 * and decides when each one answers; the end-to-end path (real engine) is test/orders/workflow/.
 * And a start that failed is retried by the object's alarm at the time stored with the run,
 * eviction or not.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { START_RETRY_MS } from "../../../src/orders/tenant/order-book";
import { Pulses } from "../../../src/kernel/stored-rows";
import { OrderDesk } from "../../../src/orders/tenant/order-desk";
import type { OrderSettings } from "../../../src/orders/tenant/order-settings";
import { coffeeOrder } from "../../fixtures/orders/coffee";
import { ShopPins } from "../../../src/orders/tenant/shop-pins";
import type { Bindings } from "../../../src/kernel/config";
import { applyEvent } from "../../../src/orders/runs";
import { sign } from "../../fixtures/orders/sign";
import { corpus } from "../../fixtures/orders/shopify";
import { shopDomainOf, shopTenant, waitFor } from "../../helpers/orders";

const TENANT = env.TENANT;
const OWNER = { tenant: "demo:desk-test", registration: "reg-1" } as const;
const AT = "2026-03-01T10:00:00.000Z";

const order = (id: string) => coffeeOrder(id);

/**
 * A Workflows binding that records each create and holds its answer until `release` (after which it
 * answers at once); `reached(n)` settles once n creates have been asked for.
 */
function engine() {
  const created: string[] = [];
  const held: (() => void)[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let holding = true;
  const binding = {
    create: async ({ id }: { id: string }) => {
      created.push(id);
      for (const w of waiters.filter((w) => created.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      return { id };
    },
  };
  const reached = (count: number) =>
    created.length >= count
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ count, resolve }));
  const release = () => {
    holding = false;
    for (const answer of held.splice(0)) answer();
  };
  return { created, binding, reached, release };
}

describe("order desk: starting runs", () => {
  it("creates each pending run's instance once when intakes start them concurrently, and marks every run started", async () => {
    const stub = TENANT.get(TENANT.idFromName(`test:order-desk-${Date.now().toString(36)}`));
    await runInDurableObject(stub, async (_instance, state) => {
      const wf = engine();
      // startPending reads neither settings nor any binding but the engine's.
      const desk = new OrderDesk(
        state.storage.sql,
        { ORDER_TO_INVOICE: wf.binding } as unknown as Bindings,
        {} as OrderSettings,
        new ShopPins(state.storage.sql),
        {
          take: () => ({ intake: "ignored", detail: "", view: null }),
          startPending: async () => false,
        },
        { link: () => undefined },
        new Pulses(),
      );
      for (const id of ["1001", "1002", "1003"])
        desk.book.put(applyEvent(null, "shopify", { kind: "paid", order: order(id) }, AT).run);
      // Three intakes of a burst, each starting what is pending while the first creations are still
      // under way.
      const starts = [desk.startPending(OWNER), desk.startPending(OWNER), desk.startPending(OWNER)];
      // Until each intake has asked the engine for something (a wait on a count, not on time).
      await wf.reached(3);
      wf.release();
      const waiting = await Promise.all(starts);
      expect(wf.created).toHaveLength(3);
      expect(new Set(wf.created).size).toBe(3);
      expect(desk.book.pending()).toEqual([]);
      // The calls that found creations under way leave the alarm armed, in case those fail.
      expect(waiting).toEqual([false, true, true]);
    });
  });
});

describe("order desk: a failed start waits in storage", () => {
  it("keeps the retry's due time in the run's row: after an eviction the alarm is still due then, and running it starts the run", async () => {
    const [shop] = corpus();
    if (!shop) throw new Error("empty corpus");
    const t = await shopTenant();
    const stub = TENANT.get(TENANT.idFromName(t.name));
    const orderId = "9600001";
    const delivery = await sign("shopify", { ...shop.payload, id: Number(orderId) });
    // From the tenant's own shop (the object is called directly here, not through its helper).
    delivery.headers["X-Shopify-Shop-Domain"] = shopDomainOf(t.client);
    const before = Date.now();
    const intake = await runInDurableObject(stub, async (instance) => {
      // The Workflows engine refuses the creation while this one delivery is taken in.
      const bindings = (instance as unknown as { env: Pick<Bindings, "ORDER_TO_INVOICE"> }).env;
      const engine = bindings.ORDER_TO_INVOICE;
      const refusing = { create: () => Promise.reject(new Error("engine unavailable (test)")) };
      Reflect.set(bindings, "ORDER_TO_INVOICE", refusing);
      try {
        return await instance.receiveWebhook(
          "shopify",
          Object.entries(delivery.headers),
          new TextEncoder().encode(delivery.body),
        );
      } finally {
        Reflect.set(bindings, "ORDER_TO_INVOICE", engine);
      }
    });
    const after = Date.now();
    expect(intake).toMatchObject({ ok: true, value: { status: 202, run: { state: "received" } } });
    const stored = () =>
      runInDurableObject(stub, async (_i, state) => ({
        row: state.storage.sql
          .exec<{ pending: number; start_at: number | null }>(
            "SELECT pending, start_at FROM order_runs WHERE source = 'shopify' AND order_id = ?",
            orderId,
          )
          .one(),
        alarm: await state.storage.getAlarm(),
      }));
    const failed = await stored();
    expect(failed.row.pending).toBe(1);
    const dueAt = failed.row.start_at ?? 0;
    expect(dueAt).toBeGreaterThanOrEqual(before + START_RETRY_MS);
    expect(dueAt).toBeLessThanOrEqual(after + START_RETRY_MS);
    expect(failed.alarm).toBe(dueAt);

    // Nothing in memory survives; the same delivery again wakes the object and re-arms its alarm
    // from what is stored (an in-memory flag would be gone, and the alarm with it).
    await evictDurableObject(stub);
    const again = await t.deliver("shopify", delivery.headers, delivery.body);
    expect(again.status, await again.clone().text()).toBe(200);
    expect(await stored()).toEqual({ row: { pending: 1, start_at: dueAt }, alarm: dueAt });

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const started = await stored();
    expect(started.row).toEqual({ pending: 0, start_at: null });
    expect((await waitFor(t, "shopify", orderId, ["settled", "failed"])).state).toBe("settled");
  });
});
