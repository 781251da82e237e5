/**
 * Unauthenticated traffic stays in the Worker: a webhook that fails the cheap check never reaches a
 * tenant's object, and an address that keeps failing to authenticate is refused with 429 (Workers'
 * rate limiting binding, which runs locally) before any object is reached.
 */
import { env } from "cloudflare:workers";
import { listDurableObjectIds } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { gw, slug, tenant } from "../helpers/gateway";

const TENANT = env.TENANT;
/** The binding's limit (wrangler.toml `INBOUND_LIMIT`). */
const LIMIT = 20;
/**
 * Attempts allowed before a 429 must have come: the local limiter counts fixed minute windows
 * aligned to the clock, so a run that straddles a window's end may need one more window's worth.
 */
const MOST_ATTEMPTS = 2 * LIMIT + 1;

/** Whether the tenant object named `name` exists (has been created by any request). */
async function objectExists(name: string): Promise<boolean> {
  const id = TENANT.idFromName(name);
  return (await listDurableObjectIds(TENANT)).some((i) => i.equals(id));
}

/** Addresses no other test uses (TEST-NET-3), one after another from a random start. */
let next = Math.floor(Math.random() * 200);
const address = () => `203.0.113.${next++}`;
const forgedKey = (client: string) => `lg_demo_${client}_${"A".repeat(43)}`;

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

describe("inbound: repeated failed authentications", () => {
  it("are answered 429 with Retry-After once over the limit, then refused in the Worker without reaching any object", async () => {
    const from = address();
    let attempts = 0;
    let last: Response | null = null;
    while (attempts < MOST_ATTEMPTS) {
      attempts++;
      last = await gw("/v2/Customers", {
        headers: { authorization: `Bearer ${forgedKey(slug("guess"))}`, "cf-connecting-ip": from },
      });
      if (last.status !== 401) break;
    }
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(attempts).toBeGreaterThan(LIMIT);
    // Blocked: a further guess at a new tenant is refused before its object is ever created.
    const client = slug("guess");
    const blocked = await gw("/v2/Customers", {
      headers: { authorization: `Bearer ${forgedKey(client)}`, "cf-connecting-ip": from },
    });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/too-many-requests",
    });
    expect(await objectExists(`demo:${client}`)).toBe(false);
    // Another address is not affected, and a good key never counts as a failure.
    const t = await tenant();
    expect(
      (
        await gw("/v2/ClientIntegrationInformation", {
          headers: { authorization: `Bearer ${t.gatewayKey}`, "cf-connecting-ip": address() },
        })
      ).status,
    ).toBe(200);
  });

  it("a caller that only ever succeeds is never limited", async () => {
    const t = await tenant();
    const from = address();
    for (let i = 0; i < LIMIT + 5; i++) {
      expect(
        (
          await gw("/v2/ClientIntegrationInformation", {
            headers: { authorization: `Bearer ${t.gatewayKey}`, "cf-connecting-ip": from },
          })
        ).status,
      ).toBe(200);
    }
  });
});

describe("inbound: /healthz", () => {
  it("is limited per address, since it asks each environment's rate governor", async () => {
    const from = address();
    const statuses: number[] = [];
    for (let i = 0; i < MOST_ATTEMPTS && !statuses.includes(429); i++)
      statuses.push((await gw("/healthz", { headers: { "cf-connecting-ip": from } })).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeGreaterThan(LIMIT);
    expect((await gw("/healthz", { headers: { "cf-connecting-ip": address() } })).status).toBe(200);
  });
});
