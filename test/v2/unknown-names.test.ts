/**
 * A path that names no such source or environment is a 404 problem that lists the ones there are,
 * on every route that takes one (`src/kernel/middleware/validate.ts`): the webhooks, the operator
 * API and the order runs.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { sign } from "../fixtures/orders/sign";
import { ADMIN, fresh, gw, json, tenant } from "../helpers/gateway";

beforeEach(() => fresh());

const SOURCES = "shopify, woocommerce, stripe, standard";
const ENVIRONMENTS = "demo, production";

async function notFound(res: Response): Promise<string> {
  expect(res.status).toBe(404);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = (await res.json()) as { detail: string; requestId: string };
  expect(body.requestId).toBe(res.headers.get("x-request-id"));
  return body.detail;
}

describe("unknown names: the problem lists the valid ones", () => {
  it("webhooks: an unknown source or environment", async () => {
    const signed = await sign("shopify", { id: 1 });
    const post = (path: string) =>
      gw(path, { method: "POST", headers: signed.headers, body: signed.body });
    expect(await notFound(await post("/webhooks/magento/acme/demo"))).toContain(SOURCES);
    expect(await notFound(await post("/webhooks/shopify/acme/staging"))).toContain(ENVIRONMENTS);
  });

  it("admin: an unknown environment or source", async () => {
    expect(
      await notFound(await gw("/admin/tenants/staging/acme/gateway-keys", json({}, "POST", ADMIN))),
    ).toContain(ENVIRONMENTS);
    expect(
      await notFound(
        await gw(
          "/admin/tenants/demo/acme/webhooks/magento",
          json({ secret: "a-long-secret" }, "PUT", ADMIN),
        ),
      ),
    ).toContain(SOURCES);
  });

  it("orders: an unknown source", async () => {
    const t = await tenant();
    const detail = await notFound(
      await gw("/orders/magento/1001", { headers: { authorization: `Bearer ${t.gatewayKey}` } }),
    );
    expect(detail).toContain(SOURCES);
  });
});
