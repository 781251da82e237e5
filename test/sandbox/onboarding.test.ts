/**
 * Onboarding in the sandbox: Initiate (anonymous) → the approval page the TemporaryUrl opens →
 * approve or decline → redirect with the token → Finalize, once, for client keys that work at the
 * token endpoint.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { api, call, fresh, keys, newClient, requestToken, tokenFor } from "./helpers";

beforeEach(() => fresh());

type Environment = "demo" | "production";
const REDIRECT = "https://app.example.no/onboarding/callback?state=abc123";

/** An anonymous onboarding call: the subscription key, no token. */
async function onboarding(
  environment: Environment,
  op: "Initiate" | "Finalize",
  body: unknown,
  subscriptionKey?: string | null,
): Promise<Response> {
  const sub =
    subscriptionKey === undefined ? (await keys())[environment].subscriptionKey : subscriptionKey;
  return api(environment, null, `/Onboarding/${op}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    subscriptionKey: sub,
  });
}

async function initiate(
  environment: Environment = "demo",
  extra: Record<string, unknown> = {},
): Promise<{ TemporaryUrl: string; ValidUntilDateTimeOffset: string }> {
  const res = await onboarding(environment, "Initiate", {
    ApplicationKey: (await keys())[environment].applicationKey,
    RedirectUri: REDIRECT,
    ...extra,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** Posts the approval form; answers the response (a 303 on success). */
function answer(url: string, fields: [string, string][]): Promise<Response> {
  return call(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

function finalize(environment: Environment, token: string): Promise<Response> {
  return onboarding(environment, "Finalize", { OnboardingToken: token });
}

describe("sandbox onboarding: happy path", () => {
  it("Initiate needs no token and answers a TemporaryUrl to the sandbox's approval page", async () => {
    const started = await initiate();
    expect(Object.keys(started).sort()).toEqual(["TemporaryUrl", "ValidUntilDateTimeOffset"]);
    expect(started.TemporaryUrl).toMatch(
      /^https:\/\/sandbox\.test\/onboarding\/demo\/[0-9a-f]{64}$/,
    );
    expect(Date.parse(started.ValidUntilDateTimeOffset)).toBeGreaterThan(Date.now());
  });

  it("the page lists the environment's clients with labels; approving redirects with the token and the RedirectUri's own query", async () => {
    const a = await newClient("demo", { name: "Fjord AS", organizationNumber: "923609016" });
    await newClient("production", { name: "Other env AS" });
    const { TemporaryUrl } = await initiate();
    const page = await call(TemporaryUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain(`value="${a.clientId}" id="client-0"`);
    expect(html).toMatch(/<label for="client-0">Fjord AS \(org\. no\. 923609016\)<\/label>/);
    expect(html).toContain('<label for="company-name">');
    expect(html).not.toContain("Other env AS");
    const res = await answer(TemporaryUrl, [
      ["client", a.clientId],
      ["decision", "approve"],
    ]);
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe("https://app.example.no/onboarding/callback");
    expect(back.searchParams.get("state")).toBe("abc123");
    expect(back.searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it("Finalize gives one working client key per approved client, once; the client's previous key stops working", async () => {
    const a = await newClient("demo", { name: "A AS", organizationNumber: "111111111" });
    const b = await newClient("demo", { name: "B AS", organizationNumber: "222222222" });
    const { TemporaryUrl } = await initiate();
    const res = await answer(TemporaryUrl, [
      ["client", a.clientId],
      ["client", b.clientId],
      ["decision", "approve"],
    ]);
    const token = new URL(res.headers.get("location") ?? "").searchParams.get("token") ?? "";
    const done = await finalize("demo", token);
    expect(done.status).toBe(200);
    const body = (await done.json()) as {
      OnboardedClientsInformation: {
        ClientKey: string;
        ClientName: string;
        ClientOrganizationNumber: string;
      }[];
      UserEmail: string;
    };
    expect(
      body.OnboardedClientsInformation.map((c) => [c.ClientName, c.ClientOrganizationNumber]),
    ).toEqual([
      ["A AS", "111111111"],
      ["B AS", "222222222"],
    ]);
    expect(body.UserEmail).toMatch(/@example\.com$/);
    for (const c of body.OnboardedClientsInformation) {
      const t = await tokenFor("demo", c.ClientKey);
      expect((await api("demo", t, "/ClientIntegrationInformation")).status).toBe(200);
    }
    const k = (await keys()).demo;
    const old = await requestToken("demo", {
      basic: btoa(`${k.applicationKey}:${a.clientKey}`),
      subscriptionKey: k.subscriptionKey,
    });
    expect(old.status).toBe(400);
    const again = await finalize("demo", token);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { detail: string }).detail).toMatch(
      /unknown, already used or expired/,
    );
    expect((await call(TemporaryUrl)).status).toBe(409);
  });

  it("offers only the company asked for, and creates it on the spot when it does not exist yet", async () => {
    await newClient("production", { name: "Someone AS", organizationNumber: "999999999" });
    const { TemporaryUrl } = await initiate("production", { ClientOrganizationNo: "980386465" });
    const html = await (await call(TemporaryUrl)).text();
    expect(html).not.toContain("Someone AS");
    expect(html).toMatch(/name="organizationNumber"[^>]*value="980386465" readonly/);
    const res = await answer(TemporaryUrl, [
      ["companyName", "Ny Bedrift AS"],
      ["organizationNumber", "980386465"],
      ["decision", "approve"],
    ]);
    expect(res.status).toBe(303);
    const token = new URL(res.headers.get("location") ?? "").searchParams.get("token") ?? "";
    const body = (await (await finalize("production", token)).json()) as {
      OnboardedClientsInformation: { ClientKey: string; ClientName: string }[];
    };
    expect(body.OnboardedClientsInformation.map((c) => c.ClientName)).toEqual(["Ny Bedrift AS"]);
    await tokenFor("production", body.OnboardedClientsInformation[0]?.ClientKey ?? "");
  });
});

describe("sandbox onboarding: refusals", () => {
  it("declining redirects with error=access_denied and the state, and leaves nothing to finalize", async () => {
    await newClient("demo", { name: "A AS" });
    const { TemporaryUrl } = await initiate();
    const res = await answer(TemporaryUrl, [["decision", "decline"]]);
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get("location") ?? "");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("abc123");
    expect(back.searchParams.has("token")).toBe(false);
    expect((await answer(TemporaryUrl, [["decision", "approve"]])).status).toBe(409);
  });

  it("an approval with nothing picked, a bad new company or a company not offered is shown again with the reason (400)", async () => {
    const other = await newClient("production", { name: "Elsewhere AS" });
    const { TemporaryUrl } = await initiate();
    for (const fields of [
      [["decision", "approve"]],
      [
        ["companyName", "X AS"],
        ["organizationNumber", "12"],
        ["decision", "approve"],
      ],
      [
        ["client", other.clientId],
        ["decision", "approve"],
      ],
    ] as [string, string][][]) {
      const res = await answer(TemporaryUrl, fields);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('role="alert"');
    }
    expect(
      (
        await answer(TemporaryUrl, [
          ["companyName", "Y AS"],
          ["organizationNumber", "123456789"],
          ["decision", "approve"],
        ])
      ).status,
    ).toBe(303);
  });

  it("an unknown page is 404, an expired one 410", async () => {
    expect((await call(`/onboarding/demo/${"0".repeat(64)}`)).status).toBe(404);
    expect((await call("/onboarding/staging/x")).status).toBe(404);
    const { TemporaryUrl } = await initiate();
    const ns = env.PLATFORM;
    await runInDurableObject(ns.get(ns.idFromName("demo")), (_i, state) => {
      state.storage.sql.exec("UPDATE onboardings SET valid_until = ?", Date.now() - 1);
    });
    expect((await call(TemporaryUrl)).status).toBe(410);
    expect((await answer(TemporaryUrl, [["decision", "decline"]])).status).toBe(410);
  });

  it("Initiate refuses a missing subscription key (401), a wrong or missing ApplicationKey, a missing RedirectUri (400)", async () => {
    const appKey = (await keys()).demo.applicationKey;
    expect(
      (
        await onboarding(
          "demo",
          "Initiate",
          { ApplicationKey: appKey, RedirectUri: REDIRECT },
          null,
        )
      ).status,
    ).toBe(401);
    const field = async (body: unknown) =>
      Object.keys(
        (
          (await (await onboarding("demo", "Initiate", body)).json()) as {
            errors: Record<string, string[]>;
          }
        ).errors,
      );
    expect(
      await field({
        ApplicationKey: (await keys()).production.applicationKey,
        RedirectUri: REDIRECT,
      }),
    ).toEqual(["ApplicationKey"]);
    expect(await field({ RedirectUri: REDIRECT })).toEqual(["ApplicationKey"]);
    expect(await field({ ApplicationKey: appKey })).toEqual(["RedirectUri"]);
  });

  it("Finalize refuses an unknown token and a missing one (400), and a token of the other environment", async () => {
    expect((await finalize("demo", "not-a-token")).status).toBe(400);
    const f = await onboarding("demo", "Finalize", {});
    expect(Object.keys(((await f.json()) as { errors: Record<string, string[]> }).errors)).toEqual([
      "OnboardingToken",
    ]);
    await newClient("demo", { name: "A AS" });
    const { TemporaryUrl } = await initiate();
    const res = await answer(TemporaryUrl, [
      ["companyName", "Z AS"],
      ["organizationNumber", "555555555"],
      ["decision", "approve"],
    ]);
    const token = new URL(res.headers.get("location") ?? "").searchParams.get("token") ?? "";
    expect((await finalize("production", token)).status).toBe(400);
    expect((await finalize("demo", token)).status).toBe(200);
  });
});
