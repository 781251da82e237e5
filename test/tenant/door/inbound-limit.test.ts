/**
 * The inbound limit follows the party who fails (issue 23). A shop platform sends every merchant's
 * deliveries from a few shared addresses, and tenants' integrations can share an egress address:
 * another party's failures from such an address must never refuse a genuine delivery or a valid
 * gateway key. Only the operator's token, a secret a person chooses, still blocks its address.
 * Unsigned webhooks stay in the Worker. The limiter is Workers' rate limiting binding, which runs
 * locally (the tests set the client address header it counts by).
 */
import { env } from "cloudflare:workers";
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { randomSecret } from "../../../src/kernel/crypto";
import { corpus as shopifyCorpus, shopifyCancelled } from "../../fixtures/orders/shopify";
import { sign } from "../../fixtures/orders/sign";
import { ADMIN, gw, json, slug, tenant } from "../../helpers/gateway";
import { fromOwnShop, shopTenant, type ShopTenant } from "../../helpers/orders";

const TENANT = env.TENANT;
/** The binding's limit (wrangler.toml `INBOUND_LIMIT`). */
const LIMIT = 20;
/**
 * Attempts allowed before a 429 must have come: the local limiter counts fixed minute windows
 * aligned to the clock, so a run that straddles a window's end may need one more window's worth.
 */
const MOST_ATTEMPTS = 2 * LIMIT + 1;
/** The floods of the findings: twice the limit, so any address-wide block would have tripped. */
const FLOOD = 2 * LIMIT;

/** Whether the tenant object named `name` exists (has been created by any request). */
async function objectExists(name: string): Promise<boolean> {
  const id = TENANT.idFromName(name);
  return (await listDurableObjectIds(TENANT)).some((i) => i.equals(id));
}

/** Addresses no other test uses (TEST-NET-3), one after another from a random start. */
let next = Math.floor(Math.random() * 200);
const address = () => `203.0.113.${next++}`;
/** A key shaped like `client`'s, with a secret of its own (a forger varies it). */
const forgedKey = (client: string) => `lg_demo_${client}_${randomSecret(32)}`;
const from = (ip: string, headers: Record<string, string> = {}) => ({
  ...headers,
  "cf-connecting-ip": ip,
});

const shop = shopifyCorpus().find((c) => c.currency === "NOK");
if (!shop) throw new Error("empty corpus");
let orderSeq = 9_600_000 + Math.floor(Math.random() * 10_000) * 10;
/** A Shopify cancellation of a new order, signed with `secret` (default: the tenants' own). */
const cancellation = (secret?: string) =>
  sign("shopify", shopifyCancelled({ ...shop.payload, id: orderSeq++ }), secret, {
    topic: "orders/cancelled",
  });
/** Delivers `signed` to `t`'s Shopify route from `ip`. */
const deliver = (t: ShopTenant, signed: Awaited<ReturnType<typeof cancellation>>, ip: string) =>
  gw(`/webhooks/shopify/${t.client}/demo`, {
    method: "POST",
    headers: from(ip, fromOwnShop(t.client, "shopify", signed.headers)),
    body: signed.body,
  });

describe("inbound: webhooks that fail the cheap check", () => {
  it("an unsigned delivery is refused in the Worker, alike for every source, and no tenant object is reached", async () => {
    for (const source of ["shopify", "woocommerce", "stripe", "standard"]) {
      const client = slug("ghost");
      const res = await gw(`/webhooks/${source}/${client}/demo`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: 1, padding: "x".repeat(100) }),
      });
      expect(res.status, source).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(await objectExists(`demo:${client}`), source).toBe(false);
    }
  });
});

describe("inbound: a shop platform's shared address", () => {
  it("after forty forged deliveries from one address, genuine ones from it are accepted, for another tenant and for the one aimed at", async () => {
    const [aimedAt, other] = [await shopTenant(), await shopTenant()];
    const shared = address();
    // Signed with the forger's own secret, as a free shop account's webhooks are, from the
    // platform's address: every one is verified, and every one is refused as unverified.
    for (let i = 0; i < FLOOD; i++) {
      const res = await deliver(aimedAt, await cancellation("a-forgers-own-secret-0123"), shared);
      expect(res.status, `forged delivery ${i}`).toBe(401);
    }
    expect((await deliver(other, await cancellation(), shared)).status).toBe(202);
    expect((await deliver(aimedAt, await cancellation(), shared)).status).toBe(202);
  });
});

describe("inbound: gateway keys from a shared egress address", () => {
  it("a valid key from an address over its limit of bad keys works, for the tenant they named and for another", async () => {
    const [named, other] = [await tenant(), await tenant()];
    const shared = address();
    const statuses: number[] = [];
    // Until the forger is told to slow down: the binding counts fixed minute windows, so forty
    // attempts that straddle a minute's end may all fall under the limit; 2 × LIMIT + 1 cannot.
    for (let i = 0; i < MOST_ATTEMPTS && !statuses.includes(429); i++) {
      const key = forgedKey(i % 2 ? named.client : slug("guess"));
      const res = await gw("/v2/Customers", {
        headers: from(shared, { authorization: `Bearer ${key}` }),
      });
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.length).toBeGreaterThan(LIMIT);
    for (const t of [named, other])
      expect(
        (
          await gw("/v2/ClientIntegrationInformation", {
            headers: from(shared, { authorization: `Bearer ${t.gatewayKey}` }),
          })
        ).status,
        t.name,
      ).toBe(200);
  });

  it("a forged key with an invalid body is a 401, not a 400, and is counted", async () => {
    const ip = address();
    const bad = () =>
      json({ Name: 7 }, "POST", from(ip, { authorization: `Bearer ${forgedKey(slug("f"))}` }));
    const first = await gw("/v2/Customers", bad());
    expect(first.status).toBe(401);
    expect(first.headers.get("content-type")).toBe("application/problem+json");
    const statuses = [first.status];
    for (let i = 1; i < MOST_ATTEMPTS && statuses.at(-1) === 401; i++)
      statuses.push((await gw("/v2/Customers", bad())).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeGreaterThan(LIMIT);
    // The valid key's own bad body still gets its 400.
    const t = await tenant();
    expect((await t.v2("/Customers", json({ Name: 7 }))).status).toBe(400);
  });

  it("a key that failed is refused in the Worker from then on, from any address, without its tenant's object", async () => {
    const client = slug("retired");
    const key = forgedKey(client);
    const call = (ip: string) =>
      gw("/orders", { headers: from(ip, { authorization: `Bearer ${key}` }) });
    expect((await call(address())).status).toBe(401);
    // Its object was asked once; the isolate answers for it now, wherever the key comes from.
    const again = await call(address());
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await objectExists(`demo:${client}`)).toBe(true);
  });

  it("a caller that only ever succeeds is never limited", async () => {
    const t = await tenant();
    const ip = address();
    for (let i = 0; i < LIMIT + 5; i++) {
      expect(
        (
          await gw("/v2/ClientIntegrationInformation", {
            headers: from(ip, { authorization: `Bearer ${t.gatewayKey}` }),
          })
        ).status,
      ).toBe(200);
    }
  });
});

describe("inbound: the operator's token", () => {
  it("an address guessing it is refused in the Worker, right guesses included, and other addresses are not", async () => {
    const ip = address();
    let last: Response | null = null;
    for (let i = 0; i < MOST_ATTEMPTS && last?.status !== 429; i++)
      last = await gw("/admin/tenants", { headers: from(ip, { authorization: "Bearer guess" }) });
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    // A person picks this token: the block must slow guessing down, so the right one waits too.
    expect((await gw("/admin/tenants", { headers: from(ip, ADMIN) })).status).toBe(429);
    expect(
      (
        await gw("/console/sign-in", {
          method: "POST",
          headers: from(ip, { "content-type": "application/x-www-form-urlencoded" }),
          body: "token=guess",
        })
      ).status,
    ).toBe(429);
    expect((await gw("/admin/tenants", { headers: from(address(), ADMIN) })).status).toBe(200);
  });
});

describe("inbound: /healthz", () => {
  it("is limited per address, since it asks each environment's rate governor", async () => {
    const ip = address();
    const statuses: number[] = [];
    for (let i = 0; i < MOST_ATTEMPTS && !statuses.includes(429); i++)
      statuses.push((await gw("/healthz", { headers: from(ip) })).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeGreaterThan(LIMIT);
    expect((await gw("/healthz", { headers: from(address()) })).status).toBe(200);
  });
});
