/**
 * A run whose instance the Workflow engine stopped moving (a crash `wrangler dev` does not resume
 * from) is revived by the tenant's alarm once it has been silent for the stall bound: its next
 * attempt settles the order exactly once, and a run still reporting is left alone.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflowInstance, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { corpus } from "../../fixtures/orders/shopify";
import { restoreClock, skipAhead } from "../../helpers/clock";
import { shopTenant, waitFor } from "../../helpers/orders";
import { DEFAULT_RUN_STALL_SECONDS } from "../../../src/kernel/config";
import { tenantName, tenantStub } from "../../../src/kernel/stubs";
import { runInstanceId } from "../../../src/orders/runs";

const order = corpus().find((c) => c.currency === "NOK");
if (!order) throw new Error("the Shopify corpus has no NOK order");
const orderId = String(order.payload.id);

afterEach(restoreClock);

describe("a run the engine stopped moving", () => {
  it("is revived by the alarm after the stall bound, and its next attempt settles the order once", async () => {
    const t = await shopTenant();
    const tenant = tenantStub(env, tenantName(t.environment, t.client));
    const alarm = () => runInDurableObject(tenant, (o) => o.alarm());
    const [registration] = await runInDurableObject(tenant, (_o, state) =>
      state.storage.sql
        .exec<{ id: string }>("SELECT registration_id AS id FROM registration")
        .toArray(),
    );
    const params = {
      tenant: tenantName(t.environment, t.client),
      registration: String(registration?.id),
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
});
