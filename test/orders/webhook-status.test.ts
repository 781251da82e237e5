/**
 * `GET /admin/tenants/{environment}/{client}/webhooks`: each source's secret (set, and when; never
 * the value), its bound shop, the last accepted delivery and the last refused one with its reason.
 * One row per source, overwritten: refusals do not grow it.
 */
import { describe, expect, it } from "vitest";
import { corpus as shopifyCorpus } from "../fixtures/orders/shopify";
import { sign, TEST_SECRETS } from "../fixtures/orders/sign";
import { escapeHtml, signIn } from "../helpers/console";
import { ADMIN, gw, tenant } from "../helpers/gateway";
import { shopDomainOf, shopTenant } from "../helpers/orders";

const [shop] = shopifyCorpus();
if (!shop) throw new Error("empty corpus");

interface SourceStatus {
  source: string;
  secret: { set: boolean; setAt: string | null };
  shop: { domain: string; boundBy: string } | null;
  lastAccepted: { at: string } | null;
  lastRefused: { at: string; shop: string | null; reason: string; count: number } | null;
}

const status = async (client: string): Promise<SourceStatus[]> => {
  const res = await gw(`/admin/tenants/demo/${client}/webhooks`, { headers: ADMIN });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { sources: SourceStatus[] }).sources;
};

describe("webhook status: happy", () => {
  it("shows a refused delivery's reason after a bad signature, and an accepted one after a good one", async () => {
    const t = await shopTenant();
    const wrong = await sign("shopify", shop.payload, "not-the-secret");
    expect((await t.deliver("shopify", wrong.headers, wrong.body)).status).toBe(401);
    expect((await t.deliver("shopify", wrong.headers, wrong.body)).status).toBe(401);
    const good = await sign("shopify", shop.payload);
    expect((await t.deliver("shopify", good.headers, good.body)).status).toBeLessThan(300);

    const shopify = (await status(t.client)).find((s) => s.source === "shopify");
    expect(shopify?.secret.set).toBe(true);
    expect(Date.parse(shopify?.secret.setAt ?? "")).toBeGreaterThan(0);
    expect(shopify?.shop).toEqual({ domain: shopDomainOf(t.client), boundBy: "operator" });
    expect(shopify?.lastRefused).toMatchObject({ count: 2, shop: null });
    expect(shopify?.lastRefused?.reason).toMatch(/signature|hmac/i);
    expect(shopify?.lastAccepted).not.toBeNull();
    expect(JSON.stringify(await status(t.client))).not.toContain(TEST_SECRETS.shopify);
    // The tenant's console page shows the same reason, in its Deliveries table.
    const page = await (await signIn()).page(`/console/tenants/demo/${t.client}`);
    const deliveries = page.slice(page.indexOf('id="webhook-status"'));
    expect(deliveries).toContain(escapeHtml(shopify?.lastRefused?.reason ?? "no reason"));
    expect(deliveries).toContain("(2 so far)");
  });

  it("a tenant with no secrets lists every source as unset, with nothing received", async () => {
    const t = await tenant();
    for (const s of await status(t.client))
      expect(s).toMatchObject({ secret: { set: false, setAt: null }, lastAccepted: null });
  });
});

describe("webhook status: errors and security", () => {
  it("answers 404 for an unknown tenant and 401 without the operator's token", async () => {
    expect(
      (await gw("/admin/tenants/demo/no-such-client/webhooks", { headers: ADMIN })).status,
    ).toBe(404);
    const t = await tenant();
    expect((await gw(`/admin/tenants/demo/${t.client}/webhooks`)).status).toBe(401);
  });
});
