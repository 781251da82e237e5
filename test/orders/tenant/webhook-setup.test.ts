/**
 * Setting a webhook secret with its shop (`src/orders/tenant/webhook-setup.ts`): Shopify needs its
 * shop domain, the index is asked with the secret's SHA-256 (never the secret) before anything is
 * stored, a refusal stores nothing, a rotation tells the index the secret it keeps, and a first
 * delivery's pin is confirmed only for the shop the operator saw.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ClaimAnswer, ShopClaim } from "../../../src/orders/directory-shop-claims";
import { OrderSettings } from "../../../src/orders/tenant/order-settings";
import { Sealer } from "../../../src/tenant/sealer";
import { ShopPins } from "../../../src/orders/tenant/shop-pins";
import { WebhookSetup } from "../../../src/orders/tenant/webhook-setup";
import { sha256Hex } from "../../../src/kernel/crypto";

const TENANT = env.TENANT;
let seq = 0;
const SECRET = "shpss_0123456789abcdef0123456789abcdef";
const SHOP = "acme.myshopify.com";
const T0 = Date.parse("2026-03-01T10:00:00.000Z");

/** A setup over a fresh object's storage and an index that answers `answer`, counting claims. */
function withSetup<R>(
  run: (s: {
    setup: WebhookSetup;
    settings: OrderSettings;
    pins: ShopPins;
    claims: ShopClaim[];
    sql: SqlStorage;
  }) => Promise<R>,
  answer: ClaimAnswer = { ok: true },
): Promise<R> {
  const stub = TENANT.get(
    TENANT.idFromName(`test:webhook-setup-${Date.now().toString(36)}-${seq++}`),
  );
  return runInDurableObject(stub, (_i, state) => {
    const settings = new OrderSettings(state.storage.sql, new Sealer(env));
    const pins = new ShopPins(state.storage.sql);
    const claims: ShopClaim[] = [];
    const setup = new WebhookSetup(settings, pins, {
      claim: (c) => {
        claims.push(c);
        return Promise.resolve(answer);
      },
    });
    return run({ setup, settings, pins, claims, sql: state.storage.sql });
  });
}

describe("webhook setup: Shopify secrets are bound to their shop", () => {
  it("refuses a Shopify secret without its domain (422 on shopDomain), asking and storing nothing", async () => {
    await withSetup(async ({ setup, settings, claims }) => {
      expect(await setup.configure("demo:acme", "shopify", SECRET, {}, T0)).toEqual({
        ok: false,
        error: expect.objectContaining({ reason: "unprocessable", field: "shopDomain" }) as unknown,
      });
      expect(claims).toEqual([]);
      expect(await settings.secret("demo:acme", "shopify")).toBeNull();
    });
  });

  it("claims the secret's SHA-256 on the shop, then stores the secret and binds the shop", async () => {
    await withSetup(async ({ setup, settings, pins, claims }) => {
      expect(
        await setup.configure("demo:acme", "shopify", SECRET, { shopDomain: SHOP }, T0),
      ).toEqual({ ok: true, value: { previousSecretRetiresAt: null } });
      expect(claims).toEqual([
        {
          tenant: "demo:acme",
          source: "shopify",
          fingerprint: await sha256Hex(SECRET),
          shop: SHOP,
          held: [],
        },
      ]);
      expect(JSON.stringify(claims)).not.toContain(SECRET);
      expect(await settings.secret("demo:acme", "shopify")).toBe(SECRET);
      expect(pins.binding("shopify")).toEqual({ shop: SHOP, boundBy: "operator" });
      // A rotation tells the index the secret it keeps verifying, on its shop.
      await setup.configure(
        "demo:acme",
        "shopify",
        `${SECRET}-2`,
        { shopDomain: SHOP, graceSeconds: 60 },
        T0,
      );
      expect(claims[1]?.held).toEqual([{ fingerprint: await sha256Hex(SECRET), shop: SHOP }]);
    });
  });

  it("stores nothing when another tenant holds the secret on the shop (409 on shopDomain, naming it)", async () => {
    await withSetup(
      async ({ setup, settings, pins }) => {
        const refused = await setup.configure(
          "demo:acme",
          "shopify",
          SECRET,
          { shopDomain: SHOP },
          T0,
        );
        expect(refused).toMatchObject({
          ok: false,
          error: { reason: "conflict", field: "shopDomain" },
        });
        expect(JSON.stringify(refused)).toContain("demo:other");
        expect(JSON.stringify(refused)).not.toContain(SECRET);
        expect(await settings.secret("demo:acme", "shopify")).toBeNull();
        expect(pins.binding("shopify")).toBeNull();
      },
      { ok: false, tenant: "demo:other" },
    );
  });

  it("takes no shop domain for a source that names no shop, and asks no index for one", async () => {
    await withSetup(async ({ setup, settings, claims }) => {
      expect(
        await setup.configure("demo:acme", "stripe", SECRET, { shopDomain: SHOP }, T0),
      ).toMatchObject({ ok: false, error: { reason: "bad-request", field: "shopDomain" } });
      expect(await setup.configure("demo:acme", "stripe", SECRET, {}, T0)).toMatchObject({
        ok: true,
      });
      expect(await settings.secret("demo:acme", "stripe")).toBe(SECRET);
      expect(claims).toEqual([]);
    });
  });

  it("confirms a first delivery's pin only for the shop shown, claiming the current secret", async () => {
    await withSetup(async ({ setup, settings, pins, claims, sql }) => {
      await settings.setSecret("demo:acme", "shopify", SECRET);
      // As a delivery pinned it before shops were bound (the column's default).
      sql.exec("INSERT INTO webhook_shops (source, shop) VALUES ('shopify', ?)", SHOP);
      expect(pins.confirm("shopify", "x.myshopify.com")).toBe(false);
      expect(pins.binding("shopify")?.boundBy).toBe("first-delivery");
      expect(await setup.confirmShop("demo:acme", "shopify", "other.myshopify.com")).toMatchObject({
        ok: false,
        error: { reason: "conflict" },
      });
      expect(claims).toEqual([]);
      expect(await setup.confirmShop("demo:acme", "shopify", SHOP)).toEqual({
        ok: true,
        value: { shop: SHOP, boundBy: "operator" },
      });
      expect(claims.map((c) => c.fingerprint)).toEqual([await sha256Hex(SECRET)]);
      expect(pins.binding("shopify")).toEqual({ shop: SHOP, boundBy: "operator" });
    });
  });
});
