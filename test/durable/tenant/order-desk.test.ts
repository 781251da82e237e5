/**
 * Starting runs (`durable/tenant/order-desk.ts`): concurrent intakes of a burst create each run's
 * Workflow instance once. The engine is a counting stand-in here, so the test sees every create
 * and decides when each one answers; the end-to-end path (real engine) is test/workflows/.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OrderDesk } from "../../../src/durable/tenant/order-desk";
import type { OrderSettings } from "../../../src/durable/tenant/order-settings";
import type { Bindings } from "../../../src/lib/config";
import type { Order } from "../../../src/lib/orders/order";
import { applyEvent } from "../../../src/lib/orders/runs";

const TENANT = env.TENANT;
const OWNER = { tenant: "demo:desk-test", registration: "reg-1" } as const;
const AT = "2026-03-01T10:00:00.000Z";

function order(id: string): Order {
  return {
    source: "shopify",
    id,
    number: `#${id}`,
    placedAt: AT,
    paidAt: AT,
    currency: "NOK",
    taxIncluded: true,
    buyer: {
      externalId: null,
      email: null,
      firstName: "Kari",
      lastName: "Nordmann",
      company: null,
      organizationNumber: null,
      phone: null,
      address: null,
    },
    lines: [
      {
        ref: "L1",
        kind: "item",
        sku: "SKU-1",
        name: "Kaffe",
        quantity: 1,
        amount: 12_500,
        discount: 0,
        vat: "15",
      },
    ],
    total: 12_500,
  };
}

/**
 * A Workflows binding that records each create and holds its answer until `release` (after which it
 * answers at once).
 */
function engine() {
  const created: string[] = [];
  const held: (() => void)[] = [];
  let holding = true;
  const binding = {
    create: async ({ id }: { id: string }) => {
      created.push(id);
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      return { id };
    },
  };
  const release = () => {
    holding = false;
    for (const answer of held.splice(0)) answer();
  };
  return { created, binding, release };
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
      );
      for (const id of ["1001", "1002", "1003"])
        desk.book.put(applyEvent(null, "shopify", { kind: "paid", order: order(id) }, AT).run);
      // Three intakes of a burst, each starting what is pending while the first creations are still
      // under way.
      const starts = [desk.startPending(OWNER), desk.startPending(OWNER), desk.startPending(OWNER)];
      // Until each intake has asked the engine for something (a bounded wait on a count, not on
      // time).
      for (let i = 0; i < 1000 && wf.created.length < 3; i++) await scheduler.wait(1);
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
