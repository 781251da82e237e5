/**
 * A token-endpoint refusal caused by the environment's own keys is told apart from a refusal of
 * one tenant's client key: several tenants refused at once make the environment suspect (shown in
 * `/healthz`) and no tenant is marked rejected; once the keys are fixed, every tenant recovers by
 * itself. Through the gateway and the sandbox; the "deploy" of a mistyped application key is the
 * one thing staged, by giving the tenants' objects another configuration, as a deploy would.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Bindings } from "../../src/kernel/config";
import { restoreClock, skipAhead } from "../helpers/clock";
import { ADMIN, control, fresh, gw, tenant } from "../helpers/gateway";

const TENANT = env.TENANT;
const CALL = "/ClientIntegrationInformation";
/** Past one second's back-off after a single failed token request, ms. */
const PAST_FIRST_BACKOFF_MS = 1100;

// The gateway's clock skips ahead (`skipAhead`) where these tests used to wait; the sandbox's rate
// limit skips with it, so the real 10 calls a second apply here too.
beforeEach(() => fresh());
afterEach(restoreClock);

/**
 * Gives the tenant's object `vars` over its configuration (a deploy with other secrets); answers
 * how to undo it.
 */
async function deploy(name: string, vars: Partial<Bindings>): Promise<() => Promise<void>> {
  const stub = TENANT.get(TENANT.idFromName(name));
  const original = await runInDurableObject(stub, (object) => {
    const o = object as unknown as { env: Bindings };
    const before = o.env;
    o.env = { ...before, ...vars };
    return before;
  });
  return () =>
    runInDurableObject(
      stub,
      (object) => void ((object as unknown as { env: Bindings }).env = original),
    );
}

async function health(): Promise<{ environments: Record<string, string> }> {
  const res = await gw("/healthz");
  expect(res.status).toBe(200);
  return res.json();
}

async function tokenStates(): Promise<Record<string, string>> {
  const res = await gw("/admin/tenants", { headers: ADMIN });
  const { tenants } = (await res.json()) as {
    tenants: { tenant: string; token: { state: string } }[];
  };
  return Object.fromEntries(tenants.map((t) => [t.tenant, t.token.state]));
}

/**
 * Three production tenants whose registration tokens have lapsed, so their next call asks for one.
 */
async function tenantsNeedingTokens() {
  await control("PUT", "/settings", { tokenLifetimeSeconds: 1 });
  const ts = [await tenant("production"), await tenant("production"), await tenant("production")];
  await control("PUT", "/settings", { tokenLifetimeSeconds: 1200 });
  await skipAhead(PAST_FIRST_BACKOFF_MS);
  return ts;
}

describe("environment keys: several tenants refused at once", () => {
  it("the environment is suspect in /healthz, no tenant is rejected, and all recover by themselves once the keys are fixed", async () => {
    const ts = await tenantsNeedingTokens();
    const undo = await Promise.all(
      ts.map((t) => deploy(t.name, { PRODUCTION_APPLICATION_KEY: "a-mistyped-application-key" })),
    );
    for (const t of ts) {
      const res = await t.v2(CALL);
      expect(res.status, t.name).toBe(503);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await health()).environments).toEqual({ demo: "configured", production: "suspect" });
    const states = await tokenStates();
    for (const t of ts) expect(states[t.name], t.name).not.toBe("rejected");

    // The operator fixes the key and redeploys.
    for (const u of undo) await u();
    await skipAhead(PAST_FIRST_BACKOFF_MS);
    for (const t of ts) expect((await t.v2(CALL)).status, t.name).toBe(200);
    expect((await health()).environments.production).toBe("configured");
  });
});

describe("environment keys: one tenant's key refused", () => {
  it("is marked rejected once another tenant's token shows the environment's keys work", async () => {
    await control("PUT", "/settings", { tokenLifetimeSeconds: 1 });
    const lone = await tenant("production");
    await control("PUT", "/settings", { tokenLifetimeSeconds: 1200 });
    // The client removes the integration: its key will be refused from now on.
    expect((await lone.v2("/Offboarding/RemoveIntegration", { method: "DELETE" })).status).toBe(
      200,
    );
    await skipAhead(PAST_FIRST_BACKOFF_MS);
    // Nothing yet tells whose fault it is: retried later, not rejected for good.
    expect((await lone.v2(CALL)).status).toBe(503);
    expect((await tokenStates())[lone.name]).not.toBe("rejected");
    // Another tenant gets a token: the environment's keys work, so the refusal is the tenant's.
    await tenant("production");
    await skipAhead(PAST_FIRST_BACKOFF_MS);
    const refused = await lone.v2(CALL);
    expect(refused.status, await refused.clone().text()).toBe(502);
    expect(await refused.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/credentials-rejected",
    });
    expect((await tokenStates())[lone.name]).toBe("rejected");
    expect((await health()).environments.production).toBe("configured");
  });
});
