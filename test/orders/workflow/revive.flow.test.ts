/**
 * A run whose instance the Workflow engine stopped moving (a crash `wrangler dev` does not resume
 * from) is revived by the tenant's alarm once it has been silent for the stall bound: its next
 * attempt settles the order exactly once, and a run still reporting is left alone.
 */
import { env } from "cloudflare:workers";
import {
  introspectWorkflow,
  introspectWorkflowInstance,
  runInDurableObject,
} from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { corpus } from "../../fixtures/orders/shopify";
import { restoreClock, skipAhead } from "../../helpers/clock";
import { shopTenant, waitFor, type ShopTenant } from "../../helpers/orders";
import { DEFAULT_RUN_STALL_SECONDS } from "../../../src/kernel/config";
import { tenantName, tenantStub } from "../../../src/kernel/stubs";
import { runInstanceId } from "../../../src/orders/runs";
import { payoutInstanceId } from "../../../src/payouts/records";
import type { PayoutView } from "../../../src/payouts/view";
import { payoutPaid, plainOrder } from "../../fixtures/orders/payouts";
import { control, gw, stats } from "../../helpers/gateway";

const order = corpus().find((c) => c.currency === "NOK");
if (!order) throw new Error("the Shopify corpus has no NOK order");
const orderId = String(order.payload.id);

afterEach(async () => {
  await restoreClock();
  await control("PUT", "/settings", { faults: [] });
});

/** The tenant's object and its registration, which names its runs' instances. */
async function tenantOf(t: ShopTenant) {
  const name = tenantName(t.environment, t.client);
  const stub = tenantStub(env, name);
  const [r] = await runInDurableObject(stub, (_o, state) =>
    state.storage.sql
      .exec<{ id: string }>("SELECT registration_id AS id FROM registration")
      .toArray(),
  );
  return {
    name,
    registration: String(r?.id),
    alarm: () => runInDurableObject(stub, (o) => o.alarm()),
  };
}

describe("a run the engine stopped moving", () => {
  it("is revived by the alarm after the stall bound, and its next attempt settles the order once", async () => {
    const t = await shopTenant();
    const { name, registration, alarm } = await tenantOf(t);
    const params = {
      tenant: name,
      registration,
      source: "shopify" as const,
      orderId,
      refundId: null,
    };
    // The first attempt fails its first API step on every try and keeps backing off: running,
    // and silent, as an instance interrupted by a crash is. The next attempt runs as made.
    await using stuck = await introspectWorkflowInstance(
      env.ORDER_TO_INVOICE,
      await runInstanceId(params, 1),
    );
    await stuck.modify(async (m) => {
      await m.mockStepError({ name: "customer" }, new Error("worker crashed"));
    });
    await using next = await introspectWorkflowInstance(
      env.ORDER_TO_INVOICE,
      await runInstanceId(params, 2),
    );
    expect((await t.send("shopify", order.payload)).status).toBe(202);
    const first = await waitFor(t, "shopify", orderId, ["received"]);
    expect(first.attempt).toBe(1);

    // Within the bound the alarm leaves it alone.
    await alarm();
    expect((await waitFor(t, "shopify", orderId, ["received"])).steps).toEqual([]);

    await skipAhead(DEFAULT_RUN_STALL_SECONDS * 1000 + 1000);
    await alarm();
    await restoreClock();
    const run = await waitFor(t, "shopify", orderId, ["settled", "failed"], (r) => r.attempt === 2);
    expect(run.state).toBe("settled");
    expect(run.steps[0]).toEqual(
      expect.objectContaining({ name: "revive", result: { engine: expect.any(String) } }),
    );
    expect(["running", "queued"]).toContain(run.steps[0]?.result.engine);
    await expect(next.waitForStatus("complete")).resolves.toBeUndefined();
    const invoices = await t.rows("/OutgoingInvoices");
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toEqual(expect.objectContaining({ InvoiceNo: run.invoiceNo, Balance: 0 }));
  });

  it("a run silent in its reports but still calling (each try of a failing step) is not revived", async () => {
    const t = await shopTenant();
    const { alarm } = await tenantOf(t);
    await control("PUT", "/settings", {
      faults: [{ kind: "error", status: 503, target: "api", path: "/Customers" }],
    });
    expect((await t.send("shopify", order.payload)).status).toBe(202);
    await skipAhead(DEFAULT_RUN_STALL_SECONDS * 1000 + 1000);
    // A try of the step after the skip: the run is seen calling on the moved clock.
    const { requests } = await stats();
    for (let i = 0; i < 200 && (await stats()).requests === requests; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await stats()).requests).toBeGreaterThan(requests);
    await alarm();
    const run = await waitFor(t, "shopify", orderId, ["received"]);
    expect(run.attempt).toBe(1);
    expect(run.steps.map((s) => s.name)).not.toContain("revive");
  });

  it("a payout run the engine stopped moving is revived too: its next attempt books the deposit once", async () => {
    const t = await shopTenant();
    const { name, registration, alarm } = await tenantOf(t);
    {
      await using runs = await introspectWorkflow(env.ORDER_TO_INVOICE);
      expect((await t.send("standard", plainOrder("o-1", "1000.00"))).status).toBe(202);
      for (const i of await runs.get()) await i.waitForStatus("complete");
    }
    const params = { tenant: name, registration, source: "standard" as const, payoutId: "po_1" };
    await using stuck = await introspectWorkflowInstance(
      env.PAYOUT_RECONCILIATION,
      await payoutInstanceId({ ...params, attempt: 1 }),
    );
    await stuck.modify(async (m) => {
      await m.mockStepError({ name: "task" }, new Error("worker crashed"));
    });
    await using next = await introspectWorkflowInstance(
      env.PAYOUT_RECONCILIATION,
      await payoutInstanceId({ ...params, attempt: 2 }),
    );
    const event = payoutPaid("po_1", [
      { type: "charge", orderId: "o-1", amount: "1000.00", fee: "24.00" },
    ]);
    expect((await t.send("standard", event)).status).toBe(202);
    const read = async () =>
      (await (
        await gw("/payouts/standard/po_1", { headers: { authorization: `Bearer ${t.gatewayKey}` } })
      ).json()) as PayoutView;
    await alarm();
    expect(await read()).toMatchObject({ state: "received", attempt: 1 });

    await skipAhead(DEFAULT_RUN_STALL_SECONDS * 1000 + 1000);
    await alarm();
    await restoreClock();
    await expect(next.waitForStatus("complete")).resolves.toBeUndefined();
    const p = await read();
    expect(p).toMatchObject({ state: "booked", attempt: 2, amount: "976.00" });
    expect(p.steps[0]).toMatchObject({ name: "revive" });
    // One posting on the bank account, the deposit: the lost attempt posted nothing twice.
    const bank = await t.rows(
      "/AccountTransactions?accountNos=1920&fromDate=2000-01-01&toDate=2099-12-31",
    );
    expect(bank.map((r) => Number(r.Amount))).toEqual([976]);
  });
});
