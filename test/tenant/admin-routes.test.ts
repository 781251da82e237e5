import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { restoreClock, skipAhead } from "../helpers/clock";
import { ADMIN, control, fresh, gw, json, slug, stats, tenant } from "../helpers/gateway";

beforeEach(() => fresh());
afterEach(restoreClock);

type Listed = {
  tenant: string;
  token: { state: string; expiresAt?: string; reason?: string };
  counters: Record<string, number>;
};
async function listed(): Promise<Listed[]> {
  const res = await gw("/admin/tenants", { headers: ADMIN });
  expect(res.status).toBe(200);
  return ((await res.json()) as { tenants: Listed[] }).tenants;
}

/** Each tenant's gateway keys, as the list shows them. */
async function listedKeys(): Promise<
  Map<string, { createdAt: string; retiresAt: string | null }[]>
> {
  const res = await gw("/admin/tenants", { headers: ADMIN });
  const { tenants } = (await res.json()) as {
    tenants: { tenant: string; gatewayKeys: { createdAt: string; retiresAt: string | null }[] }[];
  };
  return new Map(tenants.map((t) => [t.tenant, t.gatewayKeys]));
}

describe("admin: security", () => {
  it("refuses every admin route without the operator token", async () => {
    for (const [method, path] of [
      ["GET", "/admin/tenants"],
      ["POST", "/admin/tenants"],
      ["DELETE", "/admin/tenants/demo/x"],
    ] as const) {
      for (const headers of [
        {},
        { authorization: "Bearer wrong" },
        { authorization: "Basic bG9jYWw=" },
      ] as Record<string, string>[]) {
        const res = await gw(path, { method, headers });
        expect(res.status).toBe(401);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
      }
    }
  });
});

describe("admin: tenants", () => {
  it("registers a tenant: 201 with its name and a gateway key shown once", async () => {
    const t = await tenant("demo");
    expect(t.name).toBe(`demo:${t.client}`);
    expect(t.gatewayKey).toMatch(new RegExp(`^lg_demo_${t.client}_[A-Za-z0-9_-]{43}$`));
    const l = (await listed()).find((x) => x.tenant === t.name);
    expect(l?.token.state).toBe("valid");
  });

  it("answers 409 for a tenant registered again, and does not touch it", async () => {
    const t = await tenant("demo");
    const other = await control<{ clientKey: string }>(
      "POST",
      "/clients",
      { environment: "demo" },
      201,
    );
    const res = await gw(
      "/admin/tenants",
      json({ client: t.client, environment: "demo", clientKey: other.clientKey }, "POST", ADMIN),
    );
    expect(res.status).toBe(409);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
  });

  it("checks the client key with the token endpoint first: a refused key is 422 and nothing is stored", async () => {
    const before = await stats();
    const client = slug();
    const res = await gw(
      "/admin/tenants",
      json({ client, environment: "demo", clientKey: crypto.randomUUID() }, "POST", ADMIN),
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/unprocessable",
      detail: expect.stringContaining("invalid_client"),
    });
    expect((await stats()).tokenRequests.total).toBe(before.tokenRequests.total + 1);
    expect((await listed()).some((x) => x.tenant === `demo:${client}`)).toBe(false);
    // A production client's key is refused in demo, too, and the refusal says which to try.
    const prod = await control<{ clientKey: string }>(
      "POST",
      "/clients",
      { environment: "production" },
      201,
    );
    const wrong = await gw(
      "/admin/tenants",
      json({ client, environment: "demo", clientKey: prod.clientKey }, "POST", ADMIN),
    );
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { detail: string }).detail).toContain(
      'register it with "environment": "production" instead',
    );
  });

  it("refuses a client key outside the token's character set with 422, before any token request", async () => {
    const before = (await stats()).tokenRequests.total;
    for (const clientKey of ["key-€-0b0e", "nøkkel-0b0e", "with space", "tab\tkey"]) {
      const res = await gw(
        "/admin/tenants",
        json({ client: slug(), environment: "demo", clientKey }, "POST", ADMIN),
      );
      expect(res.status, clientKey).toBe(422);
      expect(await res.json()).toMatchObject({
        type: "https://ledgergate.dev/problems/unprocessable",
        detail: expect.stringContaining("characters"),
      });
    }
    const t = await tenant();
    expect(
      (
        await gw(
          `/admin/tenants/demo/${t.client}/client-key`,
          json({ clientKey: "ny-€-nøkkel" }, "PUT", ADMIN),
        )
      ).status,
    ).toBe(422);
    // One token request: the registration of `t`. None for the refused keys.
    expect((await stats()).tokenRequests.total).toBe(before + 1);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
  });

  it("refuses malformed registrations with a problem listing the fields", async () => {
    for (const body of [
      { client: "Acme!", environment: "demo", clientKey: "k" },
      { client: "acme", environment: "staging", clientKey: "k" },
      { client: "acme", environment: "demo" },
      { client: "acme", environment: "demo", clientKey: "k", extra: 1 },
    ]) {
      const res = await gw("/admin/tenants", json(body, "POST", ADMIN));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
    }
    const bad = await gw("/admin/tenants", {
      method: "POST",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: "{nope",
    });
    expect(bad.status).toBe(400);
  });

  it("lists tenants with token state and counters, never a secret", async () => {
    const t = await tenant("production");
    await t.v2("/ClientIntegrationInformation");
    const res = await gw("/admin/tenants", { headers: ADMIN });
    const text = await res.text();
    expect(text).not.toContain(t.clientKey);
    expect(text).not.toContain(t.gatewayKey.slice(-43));
    expect(text).not.toContain(t.gatewayKey.slice(-20));
    const l = (JSON.parse(text) as { tenants: Listed[] }).tenants.find((x) => x.tenant === t.name);
    expect(l).toMatchObject({
      token: { state: "valid", expiresAt: expect.any(String) },
      counters: { tokensIssued: 1, upstreamCalls: 2 },
    });
  });

  it("rotates a gateway key: the old one works during the grace period, not after", async () => {
    const t = await tenant();
    const res = await gw(
      `/admin/tenants/demo/${t.client}/gateway-keys`,
      json({ graceSeconds: 1 }, "POST", ADMIN),
    );
    expect(res.status).toBe(201);
    const { gatewayKey } = (await res.json()) as { gatewayKey: string };
    expect(gatewayKey).not.toBe(t.gatewayKey);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
    const fresh = await gw("/v2/ClientIntegrationInformation", {
      headers: { authorization: `Bearer ${gatewayKey}` },
    });
    expect(fresh.status).toBe(200);
    // Past the old key's 1 s grace, by the gateway's clock (its cached copy ends then too).
    await skipAhead(1100);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(401);
  });

  it("rotates with no body as with the documented default: one day of grace, the old key retiring", async () => {
    const t = await tenant();
    const started = Date.now();
    const res = await gw(`/admin/tenants/demo/${t.client}/gateway-keys`, {
      method: "POST",
      headers: ADMIN,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { previousKeysRetireAt } = (await res.json()) as { previousKeysRetireAt: string };
    const grace = Date.parse(previousKeysRetireAt) - started;
    expect(grace).toBeGreaterThanOrEqual(86_400_000);
    expect(grace).toBeLessThan(86_400_000 + 60_000);
    const keys = (await listedKeys()).get(t.name);
    expect(keys?.filter((k) => k.retiresAt === previousKeysRetireAt)).toHaveLength(1);
    expect(keys?.filter((k) => k.retiresAt === null)).toHaveLength(1);
  });

  it("refuses a bad rotation with a problem and stores no key", async () => {
    const t = await tenant();
    for (const init of [
      json({ graceSeconds: -1 }, "POST", ADMIN),
      json({ graceSeconds: "soon" }, "POST", ADMIN),
      json({ grace: 5 }, "POST", ADMIN),
      { method: "POST", headers: { ...ADMIN, "content-type": "application/json" }, body: "{" },
      { method: "POST", headers: { ...ADMIN, "content-type": "text/plain" }, body: "x" },
    ]) {
      const res = await gw(`/admin/tenants/demo/${t.client}/gateway-keys`, init);
      expect(res.status, String(init.body)).toBeGreaterThanOrEqual(400);
      expect(res.status, String(init.body)).toBeLessThan(500);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    expect((await listedKeys()).get(t.name)).toEqual([
      { createdAt: expect.any(String), retiresAt: null },
    ]);
  });

  it("replaces a client key after the client re-activated the integration", async () => {
    await control("PUT", "/settings", { tokenLifetimeSeconds: 1 });
    const t = await tenant();
    // The client removes the integration; once the token expires, the old key gets nothing.
    await control("PUT", "/settings", { tokenLifetimeSeconds: 1200 });
    expect((await t.v2("/Offboarding/RemoveIntegration", { method: "DELETE" })).status).toBe(200);
    await skipAhead(1100);
    // Nothing yet tells the tenant's key from the environment's keys: retried, not rejected for
    // good (test/upstream/environment-keys.test.ts). Another tenant's token then shows whose fault
    // it is.
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(503);
    await tenant();
    // Past the first failed request's 1 s back-off.
    await skipAhead(1100);
    const refused = await t.v2("/ClientIntegrationInformation");
    expect(refused.status, await refused.clone().text()).toBe(502);
    expect(await refused.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/credentials-rejected",
    });
    expect((await listed()).find((x) => x.tenant === t.name)?.token.state).toBe("rejected");
    const back = await control<{ clientKey: string }>(
      "POST",
      `/clients/demo/${t.clientId}/reactivate`,
      undefined,
      201,
    );
    expect(
      (
        await gw(
          `/admin/tenants/demo/${t.client}/client-key`,
          json({ clientKey: "wrong" }, "PUT", ADMIN),
        )
      ).status,
    ).toBe(422);
    expect(
      (
        await gw(
          `/admin/tenants/demo/${t.client}/client-key`,
          json({ clientKey: back.clientKey }, "PUT", ADMIN),
        )
      ).status,
    ).toBe(200);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
  });

  it("removes a tenant: its key stops working and it is gone from the list", async () => {
    const t = await tenant();
    expect(
      (await gw(`/admin/tenants/demo/${t.client}`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(204);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(401);
    expect((await listed()).some((x) => x.tenant === t.name)).toBe(false);
    expect(
      (await gw(`/admin/tenants/demo/${t.client}`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(404);
  });
});

describe("admin: concurrency", () => {
  it("two registrations of one tenant at once: one 201, one 409, and the winner's key works", async () => {
    const client = await control<{ clientKey: string }>(
      "POST",
      "/clients",
      { environment: "demo" },
      201,
    );
    const name = slug();
    const body = { client: name, environment: "demo", clientKey: client.clientKey };
    const [a, b] = await Promise.all([
      gw("/admin/tenants", json(body, "POST", ADMIN)),
      gw("/admin/tenants", json(body, "POST", ADMIN)),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const winner = (await (a.status === 201 ? a : b).json()) as { gatewayKey: string };
    expect(
      (
        await gw("/v2/ClientIntegrationInformation", {
          headers: { authorization: `Bearer ${winner.gatewayKey}` },
        })
      ).status,
    ).toBe(200);
  });
});
