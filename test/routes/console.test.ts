/**
 * The operator console: signing in, the tenants and a tenant's page, rotating a key (shown once),
 * webhook secrets and the order mapping through forms, order runs with Retry, the budget page,
 * removal, and starting an onboarding.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { corpus } from "../fixtures/orders/shopify";
import { signIn, form } from "../helpers/console";
import { ADMIN, fresh, gw, json, tenant } from "../helpers/gateway";
import { shopDomainOf, shopTenant, waitFor } from "../helpers/orders";
import { signShopify } from "../fixtures/orders/sign";

beforeEach(() => fresh());

const order = corpus().find(
  (c) => c.currency === "NOK" && (c.payload.line_items as unknown[]).length >= 2,
);
if (!order) throw new Error("the Shopify corpus has no NOK order of two lines");

/**
 * The order with a 50.00 tip its lines do not explain: its run fails at its plan, before any
 * upstream call.
 */
function tipped(payload: Record<string, unknown>) {
  const total = Number(payload.total_price) + 50;
  return {
    ...payload,
    total_tip_received: "50.00",
    total_price: total.toFixed(2),
    current_total_price: total.toFixed(2),
  };
}

describe("console: happy", () => {
  it("signs in with the operator token; a wrong one gets the form again with 401", async () => {
    const page = await gw("/console/sign-in");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<label for="token">Operator token<\/label>/);
    expect(html).toMatch(/<input id="token" name="token" type="password"/);
    const wrong = await gw("/console/sign-in", form({ token: "not-the-token" }));
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That token is not valid.");
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const s = await signIn();
    const tenants = await s.page("/console");
    expect(tenants).toContain("<h1>Tenants</h1>");
    expect(tenants).toMatch(/<a href="\/console">Tenants<\/a>/);
    expect(tenants).toMatch(/<a href="\/console\/budget">Budget<\/a>/);
    expect(tenants).toContain("Sign out</button>");
    expect(tenants).toContain('lang="en"');
  });

  it("lists tenants with a link, token state and expiry; the tenant's page has every section", async () => {
    const t = await tenant();
    const s = await signIn();
    const list = await s.page("/console");
    expect(list).toContain(`<a href="/console/tenants/demo/${t.client}">demo:${t.client}</a>`);
    expect(list).toMatch(
      new RegExp(
        `demo:${t.client}</a></td><td>Test AS</td><td>valid</td><td>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC</td>`,
      ),
    );
    const page = await s.page(`/console/tenants/demo/${t.client}`);
    expect(page).toContain(`<h1>demo:${t.client}</h1>`);
    for (const h of ["Token", "Gateway keys", "Webhooks", "Order mapping", "Orders", "Remove"])
      expect(page).toMatch(new RegExp(`<h2 id="\\w+">${h}</h2>`));
    expect(page).toContain(`https://gateway.test/webhooks/shopify/${t.client}/demo`);
    for (const label of [
      "Shopify webhook secret",
      "WooCommerce webhook secret",
      "Stripe webhook secret",
      "Standard webhook secret",
      "Shop domain",
      "Yes, remove this tenant",
    ])
      expect(page).toContain(label);
    for (const button of [
      "Rotate gateway key",
      "Save Shopify secret",
      "Save mapping",
      "Remove tenant",
    ])
      expect(page).toContain(`${button}</button>`);
    expect(page).toContain(`href="/console/tenants/demo/${t.client}/orders"`);
    expect((await s.get("/console/tenants/demo/nobody-here")).status).toBe(404);
  });

  it("rotates a gateway key: the new key is on the answer once, and works; the page never shows it again", async () => {
    const t = await tenant();
    const s = await signIn();
    const res = await s.post(`/console/tenants/demo/${t.client}/gateway-keys`, {
      graceSeconds: "0",
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("New gateway key (shown once)");
    const key = /<output id="new-gateway-key">([^<]+)<\/output>/.exec(html)?.[1] ?? "";
    expect(key).toMatch(new RegExp(`^lg_demo_${t.client}_[A-Za-z0-9_-]{43}$`));
    expect(html.split(key)).toHaveLength(2);
    const withNew = await gw("/v2/ClientIntegrationInformation", {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(withNew.status).toBe(200);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(401);
    const again = await s.page(`/console/tenants/demo/${t.client}`);
    expect(again).not.toContain(key);
    expect(again).not.toContain("new-gateway-key");
  });

  it("saves a Shopify secret: the page says so and never shows it; a webhook signed with it is taken", async () => {
    const t = await tenant();
    const s = await signIn();
    const secret = `shpss_${crypto.randomUUID()}`;
    // Without the shop's domain a Shopify secret is refused, the field named.
    const bare = await s.post(`/console/tenants/demo/${t.client}/webhooks/shopify`, {
      secret,
      shopDomain: "",
    });
    expect(bare.status).toBe(422);
    expect(await bare.text()).toContain("shopDomain");
    const res = await s.post(`/console/tenants/demo/${t.client}/webhooks/shopify`, {
      secret,
      shopDomain: shopDomainOf(t.client),
    });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get("location")).toBe(
      `/console/tenants/demo/${t.client}?saved=shopify#webhooks`,
    );
    const page = await s.page(`/console/tenants/demo/${t.client}?saved=shopify`);
    expect(page).toContain("Shopify secret saved.");
    expect(page).not.toContain(secret);
    // An order that fails its plan: verified and recorded, and no upstream call outlives the test.
    const signed = await signShopify(tipped(order.payload), secret);
    expect(
      (
        await gw(`/webhooks/shopify/${t.client}/demo`, {
          method: "POST",
          headers: { ...signed.headers, "X-Shopify-Shop-Domain": shopDomainOf(t.client) },
          body: signed.body,
        })
      ).status,
    ).toBe(202);
    const short = await s.post(`/console/tenants/demo/${t.client}/webhooks/shopify`, {
      secret: "short",
    });
    expect(short.status).toBe(400);
    expect(await short.text()).not.toContain("short</");
  });

  it("saves the order mapping from the form; a bad account is shown beside the form, nothing saved", async () => {
    const t = await tenant();
    const s = await signIn();
    const page = await s.page(`/console/tenants/demo/${t.client}`);
    expect(page).toContain('name="settlementAccount" value="1920"');
    // A save is checked against the client's chart (lib/orders/mapping-check.ts): add the accounts.
    for (const [AccountNo, VatCode] of [
      [1930, "0"],
      [3001, "3"],
    ] as const)
      expect(
        (
          await t.v2(
            "/GeneralLedgerAccounts",
            json({ AccountNo, Name: "Ny", IsActive: true, VatCode }),
          )
        ).status,
      ).toBe(201);
    const res = await s.post(`/console/tenants/demo/${t.client}/order-mapping`, {
      settlementAccount: "1930",
      customers: "webshop",
      vat_25_salesAccount: "3001",
      settle: "no",
    });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(await s.page(`/console/tenants/demo/${t.client}?saved=mapping`)).toContain(
      "Order mapping saved.",
    );
    const mapping = (await (
      await gw(`/admin/tenants/demo/${t.client}/order-mapping`, { headers: ADMIN })
    ).json()) as {
      settlementAccount: number;
      customers: string;
      settle: boolean;
      vat: Record<string, { salesAccount: number }>;
    };
    expect(mapping).toMatchObject({
      settlementAccount: 1930,
      customers: "webshop",
      settle: false,
      vat: { "25": { salesAccount: 3001 }, "15": { salesAccount: 3030 } },
    });
    const bad = await s.post(`/console/tenants/demo/${t.client}/order-mapping`, {
      settlementAccount: "12",
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("settlementAccount");
  });

  it("shows runs by state, a failed run's error, and Retry starts it again", async () => {
    const t = await shopTenant();
    const orderId = String(order.payload.id);
    await t.send("shopify", tipped(order.payload));
    await waitFor(t, "shopify", orderId, ["failed"]);
    const s = await signIn();
    const list = await s.page(`/console/tenants/demo/${t.client}/orders?state=failed`);
    expect(list).toContain("<h1>Orders</h1>");
    expect(list).toContain(
      `<a href="/console/tenants/demo/${t.client}/orders/shopify/${orderId}">${orderId}</a></td><td>failed</td>`,
    );
    expect(await s.page(`/console/tenants/demo/${t.client}/orders?state=settled`)).not.toContain(
      `>${orderId}</a>`,
    );
    const page = await s.page(`/console/tenants/demo/${t.client}/orders/shopify/${orderId}`);
    expect(page).toContain(`<h1>Order ${orderId}</h1>`);
    expect(page).toMatch(
      /<p class="error" role="alert">Failed at step plan: [^<]*50\.00 more than the lines add up to/,
    );
    expect(page).toContain("Retry</button>");
    const retry = await s.post(`/console/tenants/demo/${t.client}/orders/shopify/${orderId}/retry`);
    expect(retry.status, await retry.clone().text()).toBe(303);
    expect(retry.headers.get("location")).toBe(
      `/console/tenants/demo/${t.client}/orders/shopify/${orderId}`,
    );
    const run = await waitFor(t, "shopify", orderId, ["failed"], (r) => r.attempt === 2);
    expect(run.attempt).toBe(2);
    expect((await s.get(`/console/tenants/demo/${t.client}/orders/shopify/nope`)).status).toBe(404);
  });

  it("draws the shared budget per environment and reloads itself", async () => {
    const t = await tenant();
    await t.v2("/ClientIntegrationInformation");
    const s = await signIn();
    const page = await s.page("/console/budget");
    expect(page).toContain("<h1>Shared budget</h1>");
    expect(page).toContain('<meta http-equiv="refresh" content="5"');
    for (const e of ["demo", "production"])
      expect(page).toContain(`<svg role="img" aria-label="Permits per second, ${e}"`);
    expect(page).toContain("Queue length per tenant");
    expect(page).toContain("429 answers");
    expect(page).toMatch(/<rect class="bar"/);
  });

  it("removes a tenant only with the box ticked", async () => {
    const t = await tenant();
    const s = await signIn();
    expect((await s.post(`/console/tenants/demo/${t.client}/remove`)).status).toBe(400);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
    const res = await s.post(`/console/tenants/demo/${t.client}/remove`, { confirm: "yes" });
    expect(res.status).toBe(303);
    expect(await s.page(res.headers.get("location") ?? "")).toContain(
      `demo:${t.client} was removed.`,
    );
    expect((await s.get(`/console/tenants/demo/${t.client}`)).status).toBe(404);
  });

  it("starts onboarding: a page with the link to the approval page", async () => {
    const s = await signIn();
    const res = await s.post("/console/onboarding", {
      environment: "demo",
      organizationNumber: "",
    });
    const html = await res.text();
    expect(res.status, html).toBe(200);
    expect(html).toMatch(/<a href="https:\/\/[^"]+" rel="noreferrer">Open the approval page<\/a>/);
    expect(
      (await s.post("/console/onboarding", { environment: "demo", organizationNumber: "12" }))
        .status,
    ).toBe(400);
  });
});
