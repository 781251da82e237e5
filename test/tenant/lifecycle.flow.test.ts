/**
 * No run outlives its tenant's registration. A run that is retrying when its tenant is removed is
 * terminated, and whatever escapes termination stops at its next step without calling the API; the
 * same slug registered again for another company gets none of the first company's orders in its
 * books, and an order seen before the removal runs again under the new registration.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpus } from "../fixtures/orders/shopify";
import { TEST_SECRETS } from "../fixtures/orders/sign";
import { ADMIN, control, gw, json } from "../helpers/gateway";
import { secretBody, shopTenant, waitFor } from "../helpers/orders";
import { runInstanceId } from "../../src/orders/runs";

const order = corpus().find((c) => c.currency === "NOK");
if (!order) throw new Error("the Shopify corpus has no NOK order");
const orderId = String(order.payload.id);

/** The tenant object's current registration id, read from its storage. */
function registrationOf(name: string): Promise<string | null> {
  return runInDurableObject(env.TENANT.get(env.TENANT.idFromName(name)), (_i, state) => {
    const [row] = state.storage.sql
      .exec<{ registration_id: string }>("SELECT registration_id FROM registration")
      .toArray();
    return row?.registration_id ?? null;
  });
}

describe("tenant lifecycle: no run outlives its registration", () => {
  it("removing a tenant whose run is retrying terminates it; re-registered for another company, the slug's books stay clean and the same order runs anew", async () => {
    const first = await shopTenant();
    const registration = await registrationOf(first.name);
    expect(registration).toMatch(/^[0-9a-f-]{36}$/);
    // Sending fails until further notice: the run is held between its sales order and the send.
    await control("PUT", "/settings", {
      faults: [
        { kind: "error", status: 503, target: "api", path: "/SalesOrders/*/createAndSendInvoice" },
      ],
    });
    try {
      expect((await first.send("shopify", order.payload)).status).toBe(202);
      await waitFor(first, "shopify", orderId, ["running"], (r) => r.salesOrderId !== null);
      const instance = await env.ORDER_TO_INVOICE.get(
        await runInstanceId(
          {
            tenant: first.name as `demo:${string}`,
            registration: registration ?? "",
            source: "shopify",
            orderId,
            refundId: null,
          },
          1,
        ),
      );
      expect(
        (await gw(`/admin/tenants/demo/${first.client}`, { method: "DELETE", headers: ADMIN }))
          .status,
      ).toBe(204);
      expect((await instance.status()).status).toBe("terminated");

      // The same slug, registered again for another company (another sandbox client).
      const other = await control<{ clientKey: string; clientId: string }>(
        "POST",
        "/clients",
        { environment: "demo", name: "Other AS" },
        201,
      );
      const again = await gw(
        "/admin/tenants",
        json(
          { client: first.client, environment: "demo", clientKey: other.clientKey },
          "POST",
          ADMIN,
        ),
      );
      expect(again.status).toBe(201);
      const { gatewayKey } = (await again.json()) as { gatewayKey: string };
      const second = {
        ...first,
        clientId: other.clientId,
        gatewayKey,
        orders: (path: string) =>
          gw(`/orders${path}`, { headers: { authorization: `Bearer ${gatewayKey}` } }),
      };
      const v2 = (path: string) =>
        gw(`/v2${path}`, { headers: { authorization: `Bearer ${gatewayKey}` } });
      expect(await registrationOf(first.name)).not.toBe(registration);
      // Nothing of the first registration survives: no orders, no secrets.
      expect((await second.orders(`/shopify/${orderId}`)).status).toBe(404);
      expect((await first.send("shopify", order.payload)).status).toBe(401);
      expect(
        (
          await gw(
            `/admin/tenants/demo/${first.client}/webhooks/shopify`,
            json(secretBody(first.client, "shopify", TEST_SECRETS.shopify), "PUT", ADMIN),
          )
        ).status,
      ).toBe(204);

      await control("PUT", "/settings", { faults: [] });
      // The first company's customer and sales order never reach the second company's books.
      expect((await v2("/SalesOrders")).status).toBe(204);
      expect((await v2("/Customers")).status).toBe(204);

      // The order seen before the removal runs under the new registration, to its end.
      expect((await first.send("shopify", order.payload)).status).toBe(202);
      const run = await waitFor({ ...first, ...second } as typeof first, "shopify", orderId, [
        "settled",
        "failed",
      ]);
      expect(run.state, JSON.stringify(run.error)).toBe("settled");
      expect(((await (await v2("/OutgoingInvoices")).json()) as unknown[]).length).toBe(1);
    } finally {
      await control("PUT", "/settings", { faults: [] });
    }
  });
});
