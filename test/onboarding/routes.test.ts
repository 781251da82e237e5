/**
 * Onboarding v2 through the gateway, against the sandbox: the operator starts it, the client's
 * user approves on the sandbox's page, the browser lands on the gateway's callback, and the
 * tenants exist with working tokens. Replays, expiry, declines and offboarding too.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { randomSecret, sha256Hex } from "../../src/kernel/crypto";
import { directoryStub, governorStub } from "../../src/kernel/stubs";
import { ADMIN, control, fresh, gw, json, slug, tenant } from "../helpers/gateway";

const sandbox = env.SANDBOX;
type Environment = "demo" | "production";

beforeAll(() => fresh());

let orgSeq = 0;
/** A sandbox company no other test uses: its name and a 9-digit organization number. */
async function company(environment: Environment = "demo", name = `Fjord ${slug("co")} AS`) {
  const organizationNumber = String(910_000_000 + (Date.now() % 80_000_000) + orgSeq++).slice(0, 9);
  const c = await control<{ clientId: string; clientKey: string }>(
    "POST",
    "/clients",
    { environment, name, organizationNumber },
    201,
  );
  return { ...c, name, organizationNumber };
}

async function start(
  body: Record<string, unknown>,
): Promise<{ temporaryUrl: string; expiresAt: string; environment: string }> {
  const res = await gw("/admin/onboarding", json(body, "POST", ADMIN));
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

/** The user's answer on the sandbox's page; answers where the browser is sent. */
async function answer(temporaryUrl: string, fields: [string, string][]): Promise<URL> {
  expect((await sandbox.fetch(temporaryUrl)).status).toBe(200);
  const res = await sandbox.fetch(temporaryUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  expect(res.status, await res.clone().text()).toBe(303);
  return new URL(res.headers.get("location") ?? "");
}

/** The browser following the redirect to the gateway. */
function land(location: URL): Promise<Response> {
  expect(`${location.origin}${location.pathname}`).toBe("https://gateway.test/onboarding/callback");
  return gw(location.pathname + location.search);
}

async function tenantNames(): Promise<string[]> {
  const res = await gw("/admin/tenants", { headers: ADMIN });
  return ((await res.json()) as { tenants: { tenant: string }[] }).tenants.map((t) => t.tenant);
}

/**
 * A direct token request to the sandbox with a client key. It spends the environment's
 * subscription key like any of the gateway's calls, so it first takes a permit from that key's
 * governor, as every caller of the key must: the governor may grant a burst of ten into a free
 * second, and a probe behind its back would be the eleventh call of that second (a 429 for the
 * probe or for the gateway's next token request, as the real API would answer).
 */
async function sandboxToken(environment: Environment, clientKey: string): Promise<number> {
  const permit = await governorStub(env, environment).acquire(`${environment}:_test-probe`, 10_000);
  expect(permit.ok).toBe(true);
  const k = (
    await control<Record<Environment, { applicationKey: string; subscriptionKey: string }>>(
      "GET",
      "/keys",
    )
  )[environment];
  const root = environment === "demo" ? "/Demo" : "";
  const res = await sandbox.fetch(`https://sandbox.ledgergate.local${root}/OAuth/Token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${k.applicationKey}:${clientKey}`)}`,
      "ocp-apim-subscription-key": k.subscriptionKey,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  await res.body?.cancel();
  return res.status;
}

describe("onboarding: happy path", () => {
  it("admin start → sandbox approval → callback: one tenant per company, with a valid token, and a page with nothing secret", async () => {
    const c = await company("demo", "Fjørd & Sønner AS");
    const started = await start({ environment: "demo", organizationNumber: c.organizationNumber });
    expect(started.environment).toBe("demo");
    expect(started.temporaryUrl).toMatch(
      /^https:\/\/sandbox\.ledgergate\.local\/onboarding\/demo\/[0-9a-f]{64}$/,
    );
    expect(Date.parse(started.expiresAt)).toBeGreaterThan(Date.now());
    const location = await answer(started.temporaryUrl, [
      ["client", c.clientId],
      ["decision", "approve"],
    ]);
    const res = await land(location);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await res.text();
    expect(html).toContain("demo:fjord-sonner-as");
    expect(html).toContain("Fjørd &amp; Sønner AS");
    expect(html).toContain(c.organizationNumber);
    // Nothing secret: not the onboarding token, the state, a client key (a GUID) or a gateway key.
    for (const secret of [
      location.searchParams.get("token") ?? "-",
      location.searchParams.get("state") ?? "-",
      c.clientKey,
    ])
      expect(html).not.toContain(secret);
    expect(html).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);
    expect(html).not.toContain("lg_");

    const listed = await gw("/admin/tenants", { headers: ADMIN });
    const t = (
      (await listed.json()) as {
        tenants: { tenant: string; name: string; token: { state: string } }[];
      }
    ).tenants.find((x) => x.tenant === "demo:fjord-sonner-as");
    expect(t).toMatchObject({ name: "Fjørd & Sønner AS", token: { state: "valid" } });
    // The operator's way to a gateway key: rotate with no grace (the registration's first key was
    // never shown).
    const rotated = await gw(
      "/admin/tenants/demo/fjord-sonner-as/gateway-keys",
      json({ graceSeconds: 0 }, "POST", ADMIN),
    );
    expect(rotated.status).toBe(201);
    const { gatewayKey } = (await rotated.json()) as { gatewayKey: string };
    const who = await gw("/v2/ClientIntegrationInformation", {
      headers: { authorization: `Bearer ${gatewayKey}` },
    });
    expect(who.status).toBe(200);
    expect(((await who.json()) as { ClientName: string }).ClientName).toBe("Fjørd & Sønner AS");
    // Onboarding replaced the company's earlier key: the integration is active with the new one
    // only.
    expect(await sandboxToken("demo", c.clientKey)).toBe(400);
  });

  it("connects several companies at once, a taken slug getting a number, and a company created on the approval page", async () => {
    const name = `Dup ${slug("d")} AS`;
    const a = await company("production", name);
    const b = await company("production", name);
    const started = await start({ environment: "production" });
    const location = await answer(started.temporaryUrl, [
      ["client", a.clientId],
      ["client", b.clientId],
      ["companyName", "Ny Bedrift AS"],
      ["organizationNumber", "987654321"],
      ["decision", "approve"],
    ]);
    const res = await land(location);
    expect(res.status).toBe(200);
    const base = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const names = await tenantNames();
    expect(names).toEqual(
      expect.arrayContaining([
        `production:${base}`,
        `production:${base}-2`,
        "production:ny-bedrift-as",
      ]),
    );
  });
});

describe("onboarding: errors", () => {
  it("a replayed callback is a 409 page and registers nothing more; concurrent ones: exactly one wins", async () => {
    const c = await company();
    const started = await start({ environment: "demo", organizationNumber: c.organizationNumber });
    const location = await answer(started.temporaryUrl, [
      ["client", c.clientId],
      ["decision", "approve"],
    ]);
    const [one, two] = await Promise.all([land(location), land(location)]);
    expect([one?.status, two?.status].sort()).toEqual([200, 409]);
    const before = await tenantNames();
    const again = await land(location);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("used already");
    expect(await tenantNames()).toEqual(before);
  });

  it("an expired state is a 410 page, and nothing is finalized or registered", async () => {
    // Shaped like every state the gateway makes (a malformed one never reaches the Directory).
    const state = randomSecret(32);
    await directoryStub(env).addOnboardingState(await sha256Hex(state), "demo", Date.now() - 1000);
    const before = await tenantNames();
    const res = await gw(`/onboarding/callback?state=${state}&token=whatever`);
    expect(res.status).toBe(410);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain("expired");
    expect(await tenantNames()).toEqual(before);
    expect((await gw(`/onboarding/callback?state=${state}&token=whatever`)).status).toBe(409);
  });

  it("a declined onboarding is a 403 page; unknown or missing state a 400 page; nothing registered", async () => {
    const c = await company();
    const started = await start({ environment: "demo", organizationNumber: c.organizationNumber });
    const location = await answer(started.temporaryUrl, [["decision", "decline"]]);
    expect(location.searchParams.get("error")).toBe("access_denied");
    const before = await tenantNames();
    const res = await land(location);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Nothing was connected");
    expect((await gw("/onboarding/callback?state=nope&token=x")).status).toBe(400);
    const missing = await gw("/onboarding/callback");
    expect(missing.status).toBe(400);
    expect(missing.headers.get("content-type")).toMatch(/^text\/html/);
    expect((await gw(`/onboarding/callback?state=${"x".repeat(600)}`)).status).toBe(400);
    expect(await tenantNames()).toEqual(before);
  });

  it("the admin route wants the operator's token and a valid body", async () => {
    expect((await gw("/admin/onboarding", json({ environment: "demo" }))).status).toBe(401);
    const bad = await gw(
      "/admin/onboarding",
      json({ environment: "staging", organizationNumber: "12" }, "POST", ADMIN),
    );
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toBe("application/problem+json");
    const paths = ((await bad.json()) as { errors: { path: string }[] }).errors.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["environment", "organizationNumber"]));
  });
});

describe("offboarding", () => {
  it("DELETE …?offboard=true removes the integration upstream (the client key stops working), then the tenant", async () => {
    const t = await tenant("demo");
    expect(await sandboxToken("demo", t.clientKey)).toBe(200);
    const res = await gw(`/admin/tenants/demo/${t.client}?offboard=true`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await sandboxToken("demo", t.clientKey)).toBe(400);
    expect(await tenantNames()).not.toContain(t.name);
  });

  it("without the option (the default) the integration stays active upstream; a bad value is 400", async () => {
    const t = await tenant("demo");
    expect(
      (
        await gw(`/admin/tenants/demo/${t.client}?offboard=yes`, {
          method: "DELETE",
          headers: ADMIN,
        })
      ).status,
    ).toBe(400);
    expect(
      (await gw(`/admin/tenants/demo/${t.client}`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(204);
    expect(await sandboxToken("demo", t.clientKey)).toBe(200);
  });
});
