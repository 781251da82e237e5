import { beforeEach, describe, expect, it } from "vitest";
import { api, call, control, fresh, keys, newClient, requestToken, tokenFor } from "./helpers";

beforeEach(() => fresh());

async function basicFor(environment: "demo" | "production", clientKey: string) {
  const k = (await keys())[environment];
  return { basic: btoa(`${k.applicationKey}:${clientKey}`), subscriptionKey: k.subscriptionKey };
}

describe("token endpoint: happy", () => {
  it("issues a 20-minute bearer token for matching keys, at /Demo/OAuth/Token and /OAuth/Token", async () => {
    for (const environment of ["demo", "production"] as const) {
      const { clientKey } = await newClient(environment);
      const res = await requestToken(environment, await basicFor(environment, clientKey));
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: "bearer",
        expires_in: 1200,
      });
      expect((body.access_token as string).length).toBeGreaterThanOrEqual(40);
    }
  });

  it("matches the path case-insensitively", async () => {
    const { clientKey } = await newClient("demo");
    const creds = await basicFor("demo", clientKey);
    for (const path of ["/demo/oauth/token", "/DEMO/OAUTH/TOKEN", "/Demo/OAuth/Token"]) {
      expect((await fetchPath(path, creds)).status).toBe(200);
    }
  });

  it("issues a new token each time, each one working", async () => {
    const { clientKey } = await newClient("demo");
    const a = await tokenFor("demo", clientKey);
    const b = await tokenFor("demo", clientKey);
    expect(a).not.toBe(b);
    for (const t of [a, b])
      expect((await api("demo", t, "/ClientIntegrationInformation")).status).toBe(200);
  });
});

describe("token endpoint: refused", () => {
  it("answers 400 invalid_client without a Basic header, or with a malformed one", async () => {
    const { clientKey } = await newClient("demo");
    const good = await basicFor("demo", clientKey);
    for (const basic of [null, "not base64!", btoa("no-colon"), btoa(`${clientKey}:`)]) {
      const res = await requestToken("demo", { ...good, basic });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_client" });
    }
  });

  it("answers 400 invalid_client for keys that do not belong together", async () => {
    const { clientKey } = await newClient("demo");
    const k = (await keys()).demo;
    for (const basic of [
      btoa(`wrong-app-key:${clientKey}`),
      btoa(`${k.applicationKey}:${crypto.randomUUID()}`),
    ]) {
      const res = await requestToken("demo", { basic, subscriptionKey: k.subscriptionKey });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: "invalid_client",
        error_description:
          "Client integration not found. Please ensure the provided keys are matching the desired environment.",
      });
    }
  });

  it("answers 400 invalid_client for a client key of the other environment", async () => {
    const { clientKey } = await newClient("demo");
    const k = (await keys()).production;
    const res = await requestToken("production", {
      basic: btoa(`${k.applicationKey}:${clientKey}`),
      subscriptionKey: k.subscriptionKey,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_client" });
  });

  it("answers 400 invalid_client for the other environment's application key", async () => {
    const { clientKey } = await newClient("production");
    const k = await keys();
    const res = await requestToken("production", {
      basic: btoa(`${k.demo.applicationKey}:${clientKey}`),
      subscriptionKey: k.production.subscriptionKey,
    });
    expect(res.status).toBe(400);
  });

  it("answers 401 in the APIM shape for a missing or unknown subscription key", async () => {
    const { clientKey } = await newClient("demo");
    const good = await basicFor("demo", clientKey);
    const missing = await requestToken("demo", { ...good, subscriptionKey: null });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      statusCode: 401,
      message: expect.stringContaining("missing subscription key"),
    });
    const other = await requestToken("demo", {
      ...good,
      subscriptionKey: (await keys()).production.subscriptionKey,
    });
    expect(other.status).toBe(401);
    expect(await other.json()).toEqual({
      statusCode: 401,
      message: expect.stringContaining("invalid subscription key"),
    });
  });

  it("answers 400 unsupported_grant_type for another grant, invalid_request for none", async () => {
    const { clientKey } = await newClient("demo");
    const good = await basicFor("demo", clientKey);
    const pw = await requestToken("demo", {
      ...good,
      body: "grant_type=password&username=a&password=b",
    });
    expect(pw.status).toBe(400);
    expect(await pw.json()).toMatchObject({ error: "unsupported_grant_type" });
    const none = await requestToken("demo", { ...good, body: "scope=x" });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: "invalid_request" });
  });

  it("answers 400 invalid_request for a body that is not form-encoded", async () => {
    const { clientKey } = await newClient("demo");
    const good = await basicFor("demo", clientKey);
    const res = await requestToken("demo", {
      ...good,
      contentType: "application/json",
      body: JSON.stringify({ grant_type: "client_credentials" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("issues no token from a refused request (counted, not stored)", async () => {
    const { clientId, clientKey } = await newClient("demo");
    const good = await basicFor("demo", clientKey);
    await requestToken("demo", { ...good, body: "grant_type=password" });
    await requestToken("demo", { ...good, basic: btoa("x:y") });
    const stats = await control<{
      tokensIssued: number;
      tokenRequests: { total: number; byClient: Record<string, number> };
    }>("GET", "/stats");
    expect(stats.tokensIssued).toBe(0);
    expect(stats.tokenRequests.total).toBe(2);
    expect(stats.tokenRequests.byClient[clientId]).toBeUndefined();
  });

  it("answers 405 to other methods", async () => {
    const res = await fetchPath("/OAuth/Token", { basic: null, subscriptionKey: null }, "GET");
    expect(res.status).toBe(405);
  });
});

async function fetchPath(
  path: string,
  creds: { basic: string | null; subscriptionKey: string | null },
  method = "POST",
) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (creds.basic) headers.authorization = `Basic ${creds.basic}`;
  if (creds.subscriptionKey) headers["ocp-apim-subscription-key"] = creds.subscriptionKey;
  return call(path, {
    method,
    headers,
    body: method === "GET" ? undefined : "grant_type=client_credentials",
  });
}
