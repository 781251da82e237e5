import { describe, expect, it } from "vitest";
import { ADMIN, control, fresh, gw, stats, tenant } from "../../helpers/gateway";

type Listed = { tenant: string; counters: { tokensIssued: number; tokenWaits: number } };
async function counters(name: string) {
  const l = ((await (await gw("/admin/tenants", { headers: ADMIN })).json()) as { tenants: Listed[] }).tenants;
  return l.find((x) => x.tenant === name)?.counters;
}

describe("tokens: single-flight and isolation", () => {
  it("200 concurrent first calls over 20 tenants cause exactly 20 token requests, each tenant its own", async () => {
    // Registration keeps the token it checked the key with; a 1-second lifetime lets those lapse, so
    // the 200 calls below all find their tenant without a token.
    await fresh({ tokenLifetimeSeconds: 1 });
    const tenants = await Promise.all(Array.from({ length: 20 }, () => tenant()));
    await scheduler.wait(1100);
    await control("PUT", "/settings", { tokenLifetimeSeconds: 1200 });
    const before = await stats();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (tenants[i % 20] as (typeof tenants)[number]).v2("/ClientIntegrationInformation").then(async (r) => ({ i, status: r.status, body: (await r.json()) as { ClientId: string } }))),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Every answer is the caller's own client: no token of one tenant ever served another.
    for (const r of results) expect(r.body.ClientId).toBe(tenants[r.i % 20]?.clientId);
    const after = await stats();
    expect(after.tokenRequests.total - before.tokenRequests.total).toBe(20);
    for (const t of tenants) expect((after.tokenRequests.byClient[t.clientId] ?? 0) - (before.tokenRequests.byClient[t.clientId] ?? 0)).toBe(1);
    expect(after.throttled).toBe(0);
  });
});

describe("tokens: renewal ahead of expiry", () => {
  it("with a 5-second lifetime, a steady stream over several lifetimes sees no 401 and never waits on a token request", async () => {
    await fresh({ tokenLifetimeSeconds: 5 });
    const t = await tenant();
    const statuses: number[] = [];
    const until = Date.now() + 16_000;
    while (Date.now() < until) {
      statuses.push((await t.v2("/ClientIntegrationInformation")).status);
      await scheduler.wait(200);
    }
    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const s = await stats();
    expect(s.environments.demo.rejected.token).toBe(0);
    const c = await counters(t.name);
    // Renewed at least once per lifetime, and no caller ever waited for a token request.
    expect(c?.tokensIssued).toBeGreaterThanOrEqual(4);
    expect(c?.tokenWaits).toBe(0);
  });

  it("after the API answers 401 to a token, one new token is issued and the call succeeds", async () => {
    await fresh({ tokenLifetimeSeconds: 1200 });
    const t = await tenant();
    const before = await stats();
    // The API revokes the token the gateway holds; the gateway learns it from a 401.
    expect(await control("POST", "/tokens/revoke", { clientId: t.clientId })).toEqual({ revoked: 1 });
    const res = await t.v2("/ClientIntegrationInformation");
    expect(res.status).toBe(200);
    const after = await stats();
    expect((after.tokenRequests.byClient[t.clientId] ?? 0) - (before.tokenRequests.byClient[t.clientId] ?? 0)).toBe(1);
  });
});

