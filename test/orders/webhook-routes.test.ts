/**
 * `POST /webhooks/{source}/{client}/{environment}`: every bad delivery is a clear 4xx problem and
 * starts nothing; the secrets behind the signatures are sealed and never shown.
 */
import { describe, expect, it } from "vitest";
import { corpus as shopifyCorpus } from "../fixtures/orders/shopify";
import { corpus as standardCorpus } from "../fixtures/orders/standard";
import { corpus as stripeCorpus } from "../fixtures/orders/stripe";
import { corpus as wooCorpus } from "../fixtures/orders/woocommerce";
import { sign, TEST_SECRETS, wooPing } from "../fixtures/orders/sign";
import { ADMIN, gw, json, stats, tenant } from "../helpers/gateway";
// The one detail of every unverified delivery: it never says why (the log does), so it never tells
// whether the tenant exists.
import { WEBHOOK_UNVERIFIED } from "../../src/orders/adapters/source";
import { secretBody, shopTenant, waitFor, type ShopTenant } from "../helpers/orders";

const [shop] = shopifyCorpus();
const [std] = standardCorpus();
const [str] = stripeCorpus();
const [woo] = wooCorpus();
if (!shop || !std || !str || !woo) throw new Error("empty corpus");
const now = () => Math.floor(Date.now() / 1000);

/** Expects a problem answer with `status`, and that no order run exists afterwards. */
async function refused(
  t: ShopTenant,
  res: Response,
  status: number,
  source: string,
  orderId: string,
  detail?: RegExp | string,
) {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = (await res.json()) as { status: number; detail: string };
  expect(body.status).toBe(status);
  if (detail) expect(body.detail).toMatch(detail);
  expect((await t.orders(`/${source}/${orderId}`)).status).toBe(404);
}

describe("webhooks: bad deliveries start nothing", () => {
  it("refuses a missing, wrong or tampered Shopify signature (401), and a body that is not Shopify's JSON (400)", async () => {
    const t = await shopTenant();
    const before = await stats();
    const good = await sign("shopify", shop.payload);
    const { "X-Shopify-Hmac-Sha256": _sig, ...unsigned } = good.headers;
    await refused(
      t,
      await t.deliver("shopify", unsigned, good.body),
      401,
      "shopify",
      String(shop.payload.id),
      WEBHOOK_UNVERIFIED,
    );
    const wrong = await sign("shopify", shop.payload, "not-the-secret");
    await refused(
      t,
      await t.deliver("shopify", wrong.headers, wrong.body),
      401,
      "shopify",
      String(shop.payload.id),
    );
    await refused(
      t,
      await t.deliver(
        "shopify",
        good.headers,
        good.body.replace(/"total_price":"[^"]+"/, '"total_price":"0.01"'),
      ),
      401,
      "shopify",
      String(shop.payload.id),
    );
    const notJson = await sign("shopify", "total_price=1");
    await refused(
      t,
      await t.deliver("shopify", notJson.headers, notJson.body),
      400,
      "shopify",
      String(shop.payload.id),
    );
    const wrongShape = await sign("shopify", { id: "x", line_items: "none" });
    await refused(
      t,
      await t.deliver("shopify", wrongShape.headers, wrongShape.body),
      400,
      "shopify",
      "x",
    );
    // Nothing reached the API for any of them.
    expect((await stats()).requests).toBe(before.requests);
  });

  it("refuses a stale timestamp and a replay (Stripe, Standard Webhooks); a genuine retry is a 200 duplicate", async () => {
    const t = await shopTenant();
    const strId = String((str.payload.data as { object: { id: string } }).object.id);
    const stale = await sign("stripe", str.payload, undefined, { timestamp: now() - 301 });
    await refused(
      t,
      await t.deliver("stripe", stale.headers, stale.body),
      401,
      "stripe",
      strId,
      WEBHOOK_UNVERIFIED,
    );
    const stdId = String((std.payload.data as { id: string }).id);
    const staleStd = await sign("standard", std.payload, undefined, { timestamp: now() - 301 });
    await refused(
      t,
      await t.deliver("standard", staleStd.headers, staleStd.body),
      401,
      "standard",
      stdId,
      WEBHOOK_UNVERIFIED,
    );

    const first = await sign("stripe", str.payload, undefined, { timestamp: now() - 5 });
    expect((await t.deliver("stripe", first.headers, first.body)).status).toBe(202);
    const replay = await t.deliver("stripe", first.headers, first.body);
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { detail: string }).detail).toMatch(WEBHOOK_UNVERIFIED);
    const retry = await sign("stripe", str.payload);
    expect((await t.deliver("stripe", retry.headers, retry.body)).status).toBe(200);

    const sent = await sign("standard", std.payload, undefined, { eventId: "msg_replayed" });
    expect((await t.deliver("standard", sent.headers, sent.body)).status).toBe(202);
    expect((await t.deliver("standard", sent.headers, sent.body)).status).toBe(401);
    await waitFor(t, "stripe", strId, ["settled"]);
    await waitFor(t, "standard", stdId, ["settled"]);
    expect(await t.rows("/OutgoingInvoices")).toHaveLength(2);
  });

  it("refuses an unknown tenant, a tenant without a secret for the source, and another tenant's signature (401)", async () => {
    const t = await shopTenant();
    const signed = await sign("shopify", shop.payload);
    const unknown = await gw(`/webhooks/shopify/no-such-client/demo`, {
      method: "POST",
      headers: signed.headers,
      body: signed.body,
    });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
    const bare = await tenant();
    const noSecret = await gw(`/webhooks/shopify/${bare.client}/demo`, {
      method: "POST",
      headers: signed.headers,
      body: signed.body,
    });
    expect(noSecret.status).toBe(401);
    expect(((await noSecret.json()) as { detail: string }).detail).toMatch(WEBHOOK_UNVERIFIED);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(WEBHOOK_UNVERIFIED);
    const other = await shopTenant();
    expect(
      (
        await gw(
          `/admin/tenants/demo/${other.client}/webhooks/shopify`,
          json(secretBody(other.client, "shopify", "another-tenants-secret"), "PUT", ADMIN),
        )
      ).status,
    ).toBe(204);
    const elsewhere = await sign("shopify", shop.payload, "another-tenants-secret");
    await refused(
      t,
      await t.deliver("shopify", elsewhere.headers, elsewhere.body),
      401,
      "shopify",
      String(shop.payload.id),
    );
    expect(
      (
        await gw(`/webhooks/magento/${t.client}/demo`, {
          method: "POST",
          headers: signed.headers,
          body: signed.body,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await gw(`/webhooks/shopify/${t.client}/staging`, {
          method: "POST",
          headers: signed.headers,
          body: signed.body,
        })
      ).status,
    ).toBe(404);
  });

  it("refuses an oversized body with 413 before reading it all", async () => {
    const t = await shopTenant();
    const big = await sign("shopify", { ...shop.payload, note: "x".repeat(2 * 1024 * 1024) });
    await refused(
      t,
      await t.deliver("shopify", big.headers, big.body),
      413,
      "shopify",
      String(shop.payload.id),
    );
  });

  it("answers WooCommerce's unsigned activation ping with 200, and nothing else unsigned", async () => {
    const t = await shopTenant();
    const ping = wooPing();
    const res = await t.deliver("woocommerce", ping.headers, ping.body);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ intake: "ping" });
    const unsigned = await sign("woocommerce", woo.payload);
    const { "X-WC-Webhook-Signature": _s, ...headers } = unsigned.headers;
    await refused(
      t,
      await t.deliver("woocommerce", headers, unsigned.body),
      401,
      "woocommerce",
      String(woo.payload.id),
    );
  });

  it("ignores a verified event with nothing to do (200), and starts nothing", async () => {
    const t = await shopTenant();
    const pending = await sign("shopify", { ...shop.payload, financial_status: "pending" });
    const res = await t.deliver("shopify", pending.headers, pending.body);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ intake: "ignored" });
    expect((await t.orders(`/shopify/${String(shop.payload.id)}`)).status).toBe(404);
  });
});

describe("webhook secrets and order mapping (admin)", () => {
  it("takes a secret per source, never shows it, and refuses bad input", async () => {
    const t = await tenant();
    const put = (source: string, body: unknown) =>
      gw(`/admin/tenants/demo/${t.client}/webhooks/${source}`, json(body, "PUT", ADMIN));
    expect(
      (await put("shopify", secretBody(t.client, "shopify", TEST_SECRETS.shopify))).status,
    ).toBe(204);
    expect((await put("shopify", { secret: "short" })).status).toBe(400);
    expect((await put("shopify", { secret: TEST_SECRETS.shopify, extra: 1 })).status).toBe(400);
    expect((await put("magento", { secret: TEST_SECRETS.shopify })).status).toBe(404);
    expect(
      (
        await gw(
          `/admin/tenants/demo/no-such-client/webhooks/shopify`,
          json({ secret: TEST_SECRETS.shopify }, "PUT", ADMIN),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await gw(
          `/admin/tenants/demo/${t.client}/webhooks/shopify`,
          json({ secret: TEST_SECRETS.shopify }, "PUT"),
        )
      ).status,
    ).toBe(401);
    const listed = await (await gw("/admin/tenants", { headers: ADMIN })).text();
    expect(listed).not.toContain(TEST_SECRETS.shopify);
  });

  it("fills the mapping's defaults, keeps partial changes, and refuses unknown fields", async () => {
    const t = await tenant();
    const url = `/admin/tenants/demo/${t.client}/order-mapping`;
    const defaults = (await (await gw(url, { headers: ADMIN })).json()) as {
      vat: Record<string, { salesAccount: number }>;
      deliveryType: string;
      settlementAccount: number;
    };
    expect(defaults).toMatchObject({
      deliveryType: "Auto",
      settlementAccount: null,
      clearingAccounts: { standard: 1904 },
      clearingBy: "provider",
      providerAccounts: { vipps: 1906, other: 1910 },
      payouts: { bankAccount: 1920, feeAccount: 7770 },
      customers: "create",
      unknownSkus: "create",
      vat: {
        "25": { salesAccount: 3000, shippingProduct: "FRAKT-25" },
        "15": { salesAccount: 3030 },
      },
    });
    const changed = await gw(
      url,
      json(
        { vat: { "25": { shippingProduct: "SHIP" } }, deliveryType: "PdfByEmail" },
        "PUT",
        ADMIN,
      ),
    );
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      deliveryType: "PdfByEmail",
      vat: { "25": { salesAccount: 3000, shippingProduct: "SHIP" } },
    });
    const bad = await gw(url, json({ deliveryType: "Fax", vat: { "30": {} } }, "PUT", ADMIN));
    expect(bad.status).toBe(400);
    expect(
      ((await bad.json()) as { errors: { path: string }[] }).errors.map((e) => e.path).sort(),
    ).toEqual(["deliveryType", "vat.30"]);
  });
});
