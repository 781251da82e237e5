/**
 * Connection health as events (docs/events.md, "Connection health"): `tenant.connection_lost` when
 * the token renewal finds the client key refused (the client removed the integration in the
 * sandbox), whether or not the tenant is watched; `tenant.connection_restored` once a new key is
 * set; `tenant.privileges_changed` when the watcher's hourly read of the grant differs. Time is the
 * test's: the clock is moved and the objects' alarms run.
 */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { tenantName, tenantStub } from "../../src/kernel/stubs";
import { restoreClock, skipAhead } from "../helpers/clock";
import { addEndpoint, feed } from "../helpers/events";
import { ADMIN, control, gw, json, tenant } from "../helpers/gateway";
import { cycle } from "../helpers/watcher";

afterEach(restoreClock);

/** The tenant as the operator lists it. */
async function listed(name: string) {
  const res = await gw("/admin/tenants", { headers: ADMIN });
  const all = (await res.json()) as {
    tenants: { tenant: string; connection: Record<string, unknown>; token: { state: string } }[];
  };
  return all.tenants.find((x) => x.tenant === name);
}

describe("events: connection health", () => {
  it("the renewal finds the integration removed: connection_lost; a new key: connection_restored", async () => {
    const t = await tenant();
    const stub = tenantStub(env, tenantName("demo", t.client));
    // In use: its token is renewed ahead of expiry. No endpoint: the tenant is not watched.
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
    expect((await t.v2("/Offboarding/RemoveIntegration", { method: "DELETE" })).status).toBe(200);
    expect((await listed(t.name))?.connection).toMatchObject({ state: "connected", lostAt: null });

    // Into the renewal window (the last 5 of 20 minutes, its start jittered by a minute).
    await skipAhead(16.5 * 60_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    // A key that got tokens before is blamed only once another tenant gets one (upstream/token.ts).
    await tenant();
    await skipAhead(1100);
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const lost = (await feed(t.gatewayKey)).filter((e) => e.type === "tenant.connection_lost");
    expect(lost).toHaveLength(1);
    expect(lost[0]?.data).toMatchObject({ tenant: t.name, reason: expect.any(String) });
    const view = await listed(t.name);
    expect(view?.connection).toMatchObject({ state: "lost", lostAt: lost[0]?.data["lostAt"] });
    expect(view?.token.state).toBe("rejected");
    // Told once: a later alarm tells nothing again.
    await skipAhead(60_000);
    await runDurableObjectAlarm(stub);
    expect((await feed(t.gatewayKey)).map((e) => e.type)).toEqual(["tenant.connection_lost"]);

    const back = await control<{ clientKey: string }>(
      "POST",
      `/clients/demo/${t.clientId}/reactivate`,
      undefined,
      201,
    );
    const set = await gw(
      `/admin/tenants/demo/${t.client}/client-key`,
      json({ clientKey: back.clientKey }, "PUT", ADMIN),
    );
    expect(set.status).toBe(200);
    await runDurableObjectAlarm(stub);
    const told = await feed(t.gatewayKey);
    expect(told.map((e) => e.type)).toEqual([
      "tenant.connection_lost",
      "tenant.connection_restored",
    ]);
    expect(told[1]?.data).toMatchObject({ tenant: t.name, lostAt: lost[0]?.data["lostAt"] });
    expect((await listed(t.name))?.connection).toMatchObject({
      state: "connected",
      restoredAt: told[1]?.data["restoredAt"],
    });
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
  });

  it("privileges_changed once the hourly read shows another grant than the last", async () => {
    const t = await tenant();
    await addEndpoint(t.gatewayKey, {
      url: `https://hooks.${t.client}.example.com/grant`,
      types: ["tenant.privileges_changed"],
    });
    // The first read sets the baseline: no event.
    expect((await cycle(t)).lastCycle).toMatchObject({ calls: 1, outcome: "ok" });
    const changed = await control<{ ActiveClientSubscriptions: string[] }>(
      "PUT",
      `/clients/demo/${t.clientId}/privileges`,
      { subscriptions: ["Accounting"] },
    );
    expect(changed.ActiveClientSubscriptions).toEqual(["Accounting"]);
    // Within the hour the grant is not read again.
    expect((await cycle(t)).lastCycle).toMatchObject({ calls: 0, outcome: "ok" });
    expect(await feed(t.gatewayKey)).toEqual([]);

    await skipAhead(60 * 60_000 + 1000);
    expect((await cycle(t)).lastCycle).toMatchObject({ calls: 1, outcome: "ok" });
    const events = await feed(t.gatewayKey);
    expect(events.map((e) => e.type)).toEqual(["tenant.privileges_changed"]);
    const data = events[0]?.data as {
      subscriptions: { added: string[]; removed: string[] };
      now: { subscriptions: string[] };
    };
    expect(data.subscriptions.added).toEqual([]);
    expect(data.subscriptions.removed.length).toBeGreaterThan(0);
    expect(data.subscriptions.removed).not.toContain("Accounting");
    expect(data.now.subscriptions).toEqual(["Accounting"]);

    // The same grant an hour later: nothing new.
    await skipAhead(60 * 60_000 + 1000);
    expect((await cycle(t)).lastCycle).toMatchObject({ calls: 1, outcome: "ok" });
    expect(await feed(t.gatewayKey)).toHaveLength(1);
  });
});
