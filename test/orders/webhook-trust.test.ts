/**
 * Webhook trust, black-box through the gateway (issue 11, "Webhooks"): a Shopify tenant is bound to
 * its shop, a replayed Shopify event starts and changes nothing, a topic the signed body
 * contradicts is refused, secrets rotate with an overlap, and every refusal looks the same whether
 * the tenant exists or not (the WooCommerce ping too).
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpus as shopifyCorpus, shopifyCancelled } from "../fixtures/orders/shopify";
import { corpus as stripeCorpus } from "../fixtures/orders/stripe";
import { corpus as wooCorpus, wooCancelled } from "../fixtures/orders/woocommerce";
import { sign, TEST_SECRETS, wooPing, type Signed } from "../fixtures/orders/sign";
import { signIn } from "../helpers/console";
import { ADMIN, gw, json, slug, stats, tenant } from "../helpers/gateway";
import {
  secretBody,
  shopDomainOf,
  shopTenant,
  waitFor,
  type Run,
  type ShopTenant,
} from "../helpers/orders";

const shop = shopifyCorpus().find((c) => c.currency === "NOK");
const [woo] = wooCorpus();
const [str] = stripeCorpus();
if (!shop || !woo || !str) throw new Error("empty corpus");
/**
 * A Shopify cancellation of order `id`: its run is recorded and never started, so no Workflow runs.
 */
const cancellation = (id: number) => shopifyCancelled({ ...shop.payload, id });
/** A shop no other test names (the app's one secret may be bound once per shop). */
const otherShop = () => `${slug("shop")}.myshopify.com`;

/** `signed` with another `X-Shopify-Shop-Domain` (the header is outside the signature). */
const fromShop = (signed: Signed, domain: string): Signed => ({
  ...signed,
  headers: { ...signed.headers, "X-Shopify-Shop-Domain": domain },
});
const deliverTo = (client: string, source: string, signed: Signed) =>
  gw(`/webhooks/${source}/${client}/demo`, {
    method: "POST",
    headers: signed.headers,
    body: signed.body,
  });
const setSecret = (client: string, source: string, body: unknown) =>
  gw(`/admin/tenants/demo/${client}/webhooks/${source}`, json(body, "PUT", ADMIN));
const rotate = (client: string, source: string, body: unknown) =>
  gw(`/admin/tenants/demo/${client}/webhooks/${source}/secrets`, json(body, "POST", ADMIN));
const runOf = async (t: ShopTenant, source: string, id: string | number) => {
  const res = await t.orders(`/${source}/${String(id)}`);
  return res.status === 200
    ? ((await res.json()) as Run & { deliveries: number; cancelledAt: string | null })
    : null;
};

/** Runs `run` on the tenant's object's storage (to leave a state an earlier version left). */
const inStorage = <R>(t: ShopTenant, run: (sql: SqlStorage) => R) =>
  runInDurableObject(env.TENANT.get(env.TENANT.idFromName(t.name)), (_i, state) =>
    run(state.storage.sql),
  );
/** The tenant's Shopify pin as a delivery made it before shops were bound by the operator. */
const pinnedByFirstDelivery = (t: ShopTenant, shop: string) =>
  inStorage(t, (sql) => {
    sql.exec("DELETE FROM webhook_shops");
    sql.exec("INSERT INTO webhook_shops (source, shop) VALUES ('shopify', ?)", shop);
  });
/** A Shopify secret set before a shop domain was required, no delivery taken yet. */
const unpinned = (t: ShopTenant) => inStorage(t, (sql) => sql.exec("DELETE FROM webhook_shops"));
/** How many refusal records the tenant keeps. */
const refusalRows = (t: ShopTenant) =>
  inStorage(
    t,
    (sql) => sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_refusals").one().n,
  );

/** A refusal's status and body, less the request id (which differs on every answer). */
async function refusal(res: Response) {
  const body = (await res.json()) as Record<string, unknown>;
  delete body["requestId"];
  return { status: res.status, contentType: res.headers.get("content-type"), body };
}

describe("webhooks: a Shopify tenant is bound to its shop by the operator", () => {
  it("books nothing of another shop's delivery: answered 200, the refusal recorded, no run, no upstream call", async () => {
    const t = await shopTenant();
    const other = otherShop();
    const s = await signIn();
    await using introspector = await introspectWorkflow(env.ORDER_TO_INVOICE);
    const before = await stats();
    // A paid order, verified with the app's secret that every shop of the app shares.
    for (const id of [9_100_001, 9_100_002]) {
      const signed = fromShop(await sign("shopify", { ...shop.payload, id }), other);
      const res = await t.deliver("shopify", signed.headers, signed.body);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ intake: "refused", run: null });
    }
    // No run was created, so nothing can call the API later: the counts below need no wait.
    expect(await introspector.get()).toHaveLength(0);
    expect((await stats()).requests).toBe(before.requests);
    expect(await runOf(t, "shopify", 9_100_001)).toBeNull();
    // One record per source, the last refusal with a count: it does not grow with refusals.
    const page = await s.page(`/console/tenants/demo/${t.client}`);
    expect(page).toContain(other);
    expect(page).toMatch(/2 refused/);
    expect(await refusalRows(t)).toBe(1);
    // The tenant's own shop is taken as before.
    expect(
      (await t.send("shopify", cancellation(9_100_003), { topic: "orders/cancelled" })).status,
    ).toBe(202);
  });

  it("refuses a Shopify secret without its shop domain: 422 naming shopDomain, nothing stored", async () => {
    const t = await tenant();
    for (const res of [
      await setSecret(t.client, "shopify", { secret: TEST_SECRETS.shopify }),
      await rotate(t.client, "shopify", { secret: TEST_SECRETS.shopify }),
    ]) {
      expect(res.status).toBe(422);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const body = (await res.json()) as { detail: string; errors: { path: string }[] };
      expect(body.errors.map((e) => e.path)).toEqual(["shopDomain"]);
      expect(JSON.stringify(body)).not.toContain(TEST_SECRETS.shopify);
    }
    const signed = fromShop(await sign("shopify", cancellation(9_150_001)), shopDomainOf(t.client));
    expect((await deliverTo(t.client, "shopify", signed)).status).toBe(401);
  });

  it("refuses the same secret for a second tenant on the same shop (409), and takes it for a distinct shop", async () => {
    const [first, second] = [await tenant(), await tenant()];
    const secret = `shpss_${crypto.randomUUID()}`;
    const shared = otherShop();
    expect((await setSecret(first.client, "shopify", { secret, shopDomain: shared })).status).toBe(
      204,
    );
    for (const res of [
      await setSecret(second.client, "shopify", { secret, shopDomain: shared }),
      await rotate(second.client, "shopify", { secret, shopDomain: shared }),
    ]) {
      expect(res.status).toBe(409);
      expect(await res.text()).not.toContain(secret);
    }
    // Nothing was stored for the second tenant: the shared shop's delivery is not verified there.
    const signed = fromShop(await sign("shopify", cancellation(9_160_001), secret), shared);
    expect((await deliverTo(second.client, "shopify", signed)).status).toBe(401);
    // The same secret for the second tenant's own shop is taken.
    expect(
      (await setSecret(second.client, "shopify", { secret, shopDomain: otherShop() })).status,
    ).toBe(204);
    // The first tenant may set its own secret again; once it is removed, the shop is free.
    expect((await setSecret(first.client, "shopify", { secret, shopDomain: shared })).status).toBe(
      204,
    );
    expect(
      (await gw(`/admin/tenants/demo/${first.client}`, { method: "DELETE", headers: ADMIN }))
        .status,
    ).toBe(204);
    expect((await setSecret(second.client, "shopify", { secret, shopDomain: shared })).status).toBe(
      204,
    );
  });

  it("keeps a shop pinned by a first delivery before shops were bound, shows it as such, and the operator confirms it", async () => {
    const t = await shopTenant();
    const legacy = otherShop();
    await pinnedByFirstDelivery(t, legacy);
    const own = fromShop(
      await sign("shopify", cancellation(9_200_001), undefined, { topic: "orders/cancelled" }),
      legacy,
    );
    expect((await t.deliver("shopify", own.headers, own.body)).status).toBe(202);
    const s = await signIn();
    const page = await s.page(`/console/tenants/demo/${t.client}`);
    expect(page).toContain(legacy);
    expect(page).toContain("pinned by its first delivery");
    const confirmed = await s.post(
      `/console/tenants/demo/${t.client}/webhooks/shopify/confirm-shop`,
      { shop: legacy },
    );
    expect(confirmed.status, await confirmed.clone().text()).toBe(303);
    const after = await s.page(`/console/tenants/demo/${t.client}`);
    expect(after).toContain("bound by the operator");
    expect(after).not.toContain("pinned by its first delivery");
    // Still the only shop taken.
    const elsewhere = await sign("shopify", cancellation(9_200_002), undefined, {
      topic: "orders/cancelled",
    });
    expect(
      await (await t.deliver("shopify", elsewhere.headers, elsewhere.body)).json(),
    ).toMatchObject({ intake: "refused" });
  });

  it("pins nothing on first use any more: a secret set before with no shop takes no delivery until the operator names it", async () => {
    const t = await shopTenant();
    await unpinned(t);
    const first = await sign("shopify", cancellation(9_250_001), undefined, {
      topic: "orders/cancelled",
    });
    for (let i = 0; i < 2; i++) {
      const res = await t.deliver("shopify", first.headers, first.body);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ intake: "refused" });
    }
    expect(await runOf(t, "shopify", 9_250_001)).toBeNull();
    const { "X-Shopify-Shop-Domain": _d, ...noShop } = first.headers;
    expect((await t.deliver("shopify", noShop, first.body)).status).toBe(401);
  });

  it("takes a shop domain only for Shopify, and only a myshopify.com domain", async () => {
    const t = await tenant();
    expect(
      (
        await setSecret(t.client, "shopify", {
          secret: TEST_SECRETS.shopify,
          shopDomain: "https://evil.example",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await setSecret(t.client, "stripe", {
          secret: TEST_SECRETS.stripe,
          shopDomain: otherShop(),
        })
      ).status,
    ).toBe(400);
  });
});

describe("webhooks: a replayed Shopify event starts and changes nothing", () => {
  it("answers a second delivery of a seen event id as a duplicate without touching the run", async () => {
    const t = await shopTenant();
    const id = String(shop.payload.id);
    const signed = await sign("shopify", shop.payload);
    expect((await t.deliver("shopify", signed.headers, signed.body)).status).toBe(202);
    for (let i = 0; i < 3; i++) {
      const again = await t.deliver("shopify", signed.headers, signed.body);
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ intake: "duplicate" });
    }
    expect((await runOf(t, "shopify", id))?.deliveries).toBe(1);
    const run = await waitFor(t, "shopify", id, ["settled", "failed"]);
    expect(run.state).toBe("settled");
    expect(await t.rows("/OutgoingInvoices")).toHaveLength(1);
  });
});

describe("webhooks: a topic the signed body contradicts is refused", () => {
  it("refuses orders/cancelled for an order that is not cancelled, and orders/paid for one that is", async () => {
    const t = await shopTenant();
    // The topic header is not signed: a paid order's signed body relabelled as a cancellation.
    const relabelled = await sign(
      "shopify",
      { ...shop.payload, id: 9_300_001, cancelled_at: null },
      undefined,
      { topic: "orders/cancelled" },
    );
    const res = await t.deliver("shopify", relabelled.headers, relabelled.body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/cancelled_at/);
    expect(await runOf(t, "shopify", 9_300_001)).toBeNull();
    // A cancelled (and refunded) order's body relabelled as a payment.
    const paidAfterAll = await sign(
      "shopify",
      { ...cancellation(9_300_002), financial_status: "refunded" },
      undefined,
      { topic: "orders/paid" },
    );
    expect((await t.deliver("shopify", paidAfterAll.headers, paidAfterAll.body)).status).toBe(400);
    expect(await runOf(t, "shopify", 9_300_002)).toBeNull();
    // The genuine cancellation passes.
    expect(
      (await t.send("shopify", cancellation(9_300_003), { topic: "orders/cancelled" })).status,
    ).toBe(202);
  });
});

describe("webhooks: secrets rotate with an overlap", () => {
  for (const source of ["shopify", "woocommerce"] as const) {
    it(`${source}: the previous secret verifies for graceSeconds, then only the new one`, async () => {
      const t = await shopTenant();
      const body = (n: number) =>
        source === "shopify" ? cancellation(n) : wooCancelled({ ...woo.payload, id: n });
      const send = async (n: number, secret: string) => {
        const signed = await sign(source, body(n), secret, {
          topic: source === "shopify" ? "orders/cancelled" : "order.updated",
        });
        return (await t.deliver(source, signed.headers, signed.body)).status;
      };
      const [first, second, third] = [
        TEST_SECRETS[source],
        `${source}-second-secret-0123456789`,
        `${source}-third-secret-0123456789`,
      ];
      const before = Date.now();
      const rotated = await rotate(t.client, source, {
        ...secretBody(t.client, source, second),
        graceSeconds: 3600,
      });
      expect(rotated.status).toBe(201);
      const { previousSecretRetiresAt } = (await rotated.json()) as {
        previousSecretRetiresAt: string;
      };
      expect(Date.parse(previousSecretRetiresAt) - before).toBeGreaterThanOrEqual(3_600_000);
      expect(Date.parse(previousSecretRetiresAt) - Date.now()).toBeLessThanOrEqual(3_600_000);
      expect(await send(9_400_001, first)).toBe(202);
      expect(await send(9_400_002, second)).toBe(202);
      // A rotation with no grace retires the previous secret (the second) at once; the first is
      // long gone.
      expect(
        (
          await rotate(t.client, source, {
            ...secretBody(t.client, source, third),
            graceSeconds: 0,
          })
        ).status,
      ).toBe(201);
      expect(await send(9_400_003, first)).toBe(401);
      expect(await send(9_400_004, second)).toBe(401);
      expect(await send(9_400_005, third)).toBe(202);
      // The default grace is a day.
      const byDefault = await rotate(t.client, source, secretBody(t.client, source, first));
      const retires = Date.parse(
        ((await byDefault.json()) as { previousSecretRetiresAt: string }).previousSecretRetiresAt,
      );
      expect(retires).toBeGreaterThan(Date.now() + 86_000_000);
      expect(await send(9_400_006, third)).toBe(202);
      // A PUT replaces the secret outright: nothing else verifies.
      expect((await setSecret(t.client, source, secretBody(t.client, source, second))).status).toBe(
        204,
      );
      expect(await send(9_400_007, first)).toBe(401);
      expect(await send(9_400_008, second)).toBe(202);
    });
  }

  it("refuses a rotation for an unknown tenant (404), bad input (400) and without the admin token (401)", async () => {
    const t = await shopTenant();
    expect(
      (await rotate(`no-such-${slug()}`, "shopify", { secret: "a-new-secret-0123" })).status,
    ).toBe(404);
    expect((await rotate(t.client, "shopify", { secret: "short" })).status).toBe(400);
    expect(
      (
        await rotate(t.client, "shopify", {
          secret: "a-new-secret-0123",
          graceSeconds: 31 * 86_400,
        })
      ).status,
    ).toBe(400);
    expect((await rotate(t.client, "magento", { secret: "a-new-secret-0123" })).status).toBe(404);
    expect(
      (
        await gw(
          `/admin/tenants/demo/${t.client}/webhooks/shopify/secrets`,
          json({ secret: "a-new-secret-0123" }),
        )
      ).status,
    ).toBe(401);
  });
});

describe("webhooks: refusals do not tell an unknown tenant from a bad signature", () => {
  it("answers an unknown tenant, a missing secret, and a missing, wrong, stale or replayed signature alike", async () => {
    const t = await shopTenant();
    const bare = await tenant();
    const good = await sign("shopify", shop.payload);
    const { "X-Shopify-Hmac-Sha256": _sig, ...unsigned } = good.headers;
    const stale = await sign("stripe", str.payload, undefined, {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    const fresh = await sign("stripe", { ...str.payload, id: `evt_${slug()}` }, undefined, {
      timestamp: Math.floor(Date.now() / 1000) - 5,
    });
    expect((await t.deliver("stripe", fresh.headers, fresh.body)).status).toBe(202);
    const answers = [
      await deliverTo(`no-such-${slug()}`, "shopify", good),
      await deliverTo(bare.client, "shopify", good),
      await t.deliver(
        "shopify",
        (await sign("shopify", shop.payload, "not-the-secret")).headers,
        good.body,
      ),
      await t.deliver("shopify", unsigned, good.body),
      await t.deliver(
        "shopify",
        good.headers,
        good.body.replace(/"total_price":"[^"]+"/, '"total_price":"0.01"'),
      ),
      await t.deliver("stripe", stale.headers, stale.body),
      await t.deliver("stripe", fresh.headers, fresh.body),
    ];
    const [first, ...rest] = await Promise.all(answers.map(refusal));
    expect(first?.status).toBe(401);
    for (const other of rest) expect(other).toEqual(first);
    await waitFor(t, "stripe", String((str.payload.data as { object: { id: string } }).object.id), [
      "settled",
      "failed",
    ]);
  });

  it("answers WooCommerce's activation ping alike for a real tenant, one without a Woo secret, and an unknown one", async () => {
    const [t, bare] = [await shopTenant(), await tenant()];
    const ping = wooPing();
    const answers = await Promise.all(
      [t.client, bare.client, `no-such-${slug()}`].map((c) => deliverTo(c, "woocommerce", ping)),
    );
    const bodies = await Promise.all(
      answers.map(async (r) => ({ status: r.status, body: (await r.json()) as unknown })),
    );
    expect(bodies[0]).toMatchObject({ status: 200, body: { intake: "ping" } });
    for (const b of bodies.slice(1)) expect(b).toEqual(bodies[0]);
  });
});
