import { evictAllDurableObjects } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  advanceClock,
  api,
  control,
  fresh,
  holdClock,
  keys,
  newClient,
  requestToken,
  session,
  tokenFor,
} from "./helpers";

beforeEach(() => fresh());
afterEach(() => vi.useRealTimers());

describe("ClientIntegrationInformation", () => {
  it("reports the client, its subscriptions and, in demo, every privilege as valid", async () => {
    const s = await session("demo", { name: "Acme AS" });
    const res = await s.api("/ClientIntegrationInformation");
    expect(res.status).toBe(200);
    const info = (await res.json()) as Record<string, string[] | string>;
    expect(info).toMatchObject({
      ClientId: s.clientId,
      ClientName: "Acme AS",
      InvalidPrivileges: [],
    });
    expect(info.ValidPrivileges).toEqual(
      expect.arrayContaining(["Customer_Full", "SalesOrders_Full", "SalaryLine_Full"]),
    );
    expect(info.ActiveClientSubscriptions).toEqual(
      expect.arrayContaining(["Accounting", "Payroll"]),
    );
  });

  it("a client's grant changed through the control API shows in ClientIntegrationInformation", async () => {
    const s = await session("production", { privileges: ["Customer_Full"] });
    const changed = await control("PUT", `/clients/production/${s.clientId}/privileges`, {
      privileges: ["Customer_Full", "SalaryLine_Full"],
    });
    expect(changed).toMatchObject({ ClientId: s.clientId, InvalidPrivileges: ["SalaryLine_Full"] });
    const info = (await (await s.api("/ClientIntegrationInformation")).json()) as {
      ValidPrivileges: string[];
      InvalidPrivileges: string[];
    };
    expect(info.ValidPrivileges).toEqual(["Customer_Full"]);
    expect(info.InvalidPrivileges).toEqual(["SalaryLine_Full"]);
    await control(
      "PUT",
      `/clients/production/${s.clientId}/privileges`,
      { privileges: ["Nope"] },
      400,
    );
    await control("PUT", "/clients/production/no-such-client/privileges", {}, 404);
  });

  it("in production, lists granted privileges without their subscription as invalid", async () => {
    const s = await session("production", {
      privileges: ["Customer", "SalaryLine_Full"],
      subscriptions: ["Accounting"],
    });
    const info = (await (await s.api("/ClientIntegrationInformation")).json()) as Record<
      string,
      string[]
    >;
    expect(info.ValidPrivileges).toEqual(["Customer"]);
    expect(info.InvalidPrivileges).toEqual(["SalaryLine_Full"]);
    expect(info.ActiveClientSubscriptions).toEqual(["Accounting"]);
  });

  it("enforces privileges in production: read-only Customer may list but not create", async () => {
    const s = await session("production", {
      privileges: ["Customer"],
      subscriptions: ["Accounting"],
    });
    expect((await s.api("/Customers")).status).toBe(204);
    const res = await s.api("/Customers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ Name: "X" }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ detail: expect.stringContaining("Customer_Full") });
  });

  it("in production, a privilege without its subscription does not open the endpoint", async () => {
    const s = await session("production", {
      privileges: ["Customer_Full"],
      subscriptions: ["Payroll"],
    });
    expect((await s.api("/Customers")).status).toBe(403);
  });
});

describe("Offboarding", () => {
  it("RemoveIntegration: the token keeps working until it expires, then the client key gets no new token", async () => {
    await control("PUT", "/settings", { tokenLifetimeSeconds: 2 });
    holdClock();
    const s = await session("demo");
    const removed = await s.api("/Offboarding/RemoveIntegration", { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect((await s.api("/ClientIntegrationInformation")).status).toBe(200);
    const k = (await keys()).demo;
    const again = await requestToken("demo", {
      basic: btoa(`${k.applicationKey}:${s.clientKey}`),
      subscriptionKey: k.subscriptionKey,
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_client" });
    advanceClock(1999);
    expect((await s.api("/ClientIntegrationInformation")).status).toBe(200);
    advanceClock(1);
    expect((await s.api("/ClientIntegrationInformation")).status).toBe(401);
  });

  it("re-activation gives a new client key; the old one stays dead; only one active instance", async () => {
    const s = await session("demo");
    const conflict = await control(
      "POST",
      `/clients/demo/${s.clientId}/reactivate`,
      undefined,
      409,
    );
    expect(conflict).toMatchObject({ status: 409 });
    await s.api("/Offboarding/RemoveIntegration", { method: "DELETE" });
    const back = await control<{ clientKey: string }>(
      "POST",
      `/clients/demo/${s.clientId}/reactivate`,
      undefined,
      201,
    );
    expect(back.clientKey).not.toBe(s.clientKey);
    const token = await tokenFor("demo", back.clientKey);
    const info = (await (await api("demo", token, "/ClientIntegrationInformation")).json()) as {
      ClientId: string;
    };
    expect(info.ClientId).toBe(s.clientId);
    const k = (await keys()).demo;
    const old = await requestToken("demo", {
      basic: btoa(`${k.applicationKey}:${s.clientKey}`),
      subscriptionKey: k.subscriptionKey,
    });
    expect(old.status).toBe(400);
  });
});

describe("control API", () => {
  it("keeps the documented shapes", async () => {
    const k = await keys();
    for (const e of ["demo", "production"] as const) {
      expect(k[e]).toEqual({
        applicationKey: expect.any(String),
        subscriptionKey: expect.any(String),
        other: { applicationKey: expect.any(String), subscriptionKey: expect.any(String) },
      });
      // Another vendor's integration: keys of its own, not ledgergate's.
      expect(k[e].other.subscriptionKey).not.toBe(k[e].subscriptionKey);
      expect(k[e].other.applicationKey).not.toBe(k[e].applicationKey);
    }
    const c = await newClient("production", { name: "Acme" });
    expect(c).toEqual({
      clientId: expect.any(String),
      clientKey: expect.any(String),
      environment: "production",
    });
    await tokenFor("production", c.clientKey);
    const stats = await control<Record<string, unknown>>("GET", "/stats");
    expect(stats).toMatchObject({
      tokenRequests: { total: 1, byClient: { [c.clientId]: 1 } },
      requests: 1,
      throttled: 0,
    });
  });

  it("refuses a bad client body with a problem and creates nothing", async () => {
    for (const bad of [
      { environment: "staging" },
      { environment: "demo", privileges: ["Everything"] },
      { environment: "demo", extra: 1 },
    ]) {
      await control("POST", "/clients", bad, 400);
    }
    const stats = await control<{ tokenRequests: { byClient: object } }>("GET", "/stats");
    expect(stats.tokenRequests.byClient).toEqual({});
  });

  it("keeps clients and keys across a restart of the objects (state lives in Durable Object storage)", async () => {
    const { clientKey } = await newClient("demo");
    await evictAllDurableObjects();
    const token = await tokenFor("demo", clientKey);
    await evictAllDurableObjects();
    expect((await api("demo", token, "/ClientIntegrationInformation")).status).toBe(200);
  });

  it("reset forgets clients, tokens and counters", async () => {
    const s = await session("demo");
    await fresh();
    expect((await s.api("/ClientIntegrationInformation")).status).toBe(401);
    const k = (await keys()).demo;
    expect(
      (
        await requestToken("demo", {
          basic: btoa(`${k.applicationKey}:${s.clientKey}`),
          subscriptionKey: k.subscriptionKey,
        })
      ).status,
    ).toBe(400);
  });
});

describe("secrets at rest", () => {
  it("stores neither the client key nor the access token as themselves, anywhere in the platform's storage", async () => {
    const { env } = await import("cloudflare:workers");
    const { runInDurableObject } = await import("cloudflare:test");
    const s = await session("demo");
    const ns = env.PLATFORM;
    const dump = await runInDurableObject(ns.get(ns.idFromName("demo")), (_instance, state) => {
      const tables = state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .toArray();
      return JSON.stringify(
        tables.map((t) => state.storage.sql.exec(`SELECT * FROM "${t.name}"`).toArray()),
      );
    });
    expect(dump).toContain(s.clientId);
    expect(dump).not.toContain(s.clientKey);
    expect(dump).not.toContain(s.token);
  });
});
