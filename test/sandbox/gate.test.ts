import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  advanceClock,
  api,
  holdClock,
  call,
  control,
  fresh,
  keys,
  requestToken,
  newClient,
  session,
  tokenFor,
} from "./helpers";
import { rootAnswer } from "../../sandbox/src/routes/root";

beforeEach(() => fresh());
afterEach(() => vi.useRealTimers());

describe("v2 gate: tokens", () => {
  it("serves a call with a valid token and subscription key, under either path casing", async () => {
    const s = await session("demo");
    for (const path of [
      "/ClientIntegrationInformation",
      "/clientintegrationinformation",
      "/CLIENTINTEGRATIONINFORMATION",
    ]) {
      expect((await s.api(path)).status).toBe(200);
    }
  });

  it("answers 401 with no body for a missing, unknown or malformed bearer token", async () => {
    await session("demo");
    for (const token of [null, "not-a-token", "x".repeat(43)]) {
      const res = await api("demo", token, "/ClientIntegrationInformation");
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await res.text()).toBe("");
    }
  });

  it("answers 401 for a token once it has expired (short lifetime)", async () => {
    await control("PUT", "/settings", { tokenLifetimeSeconds: 1 });
    holdClock();
    const s = await session("demo");
    expect((await s.api("/ClientIntegrationInformation")).status).toBe(200);
    // The token lives exactly 1 s: it works until its last millisecond, and not at its end.
    advanceClock(999);
    expect((await s.api("/ClientIntegrationInformation")).status).toBe(200);
    advanceClock(1);
    const res = await s.api("/ClientIntegrationInformation");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("expired");
  });

  it("answers 401 for a token of the other environment", async () => {
    const demo = await session("demo");
    const prod = await session("production");
    expect((await api("production", demo.token, "/ClientIntegrationInformation")).status).toBe(401);
    expect((await api("demo", prod.token, "/ClientIntegrationInformation")).status).toBe(401);
  });

  it("answers 401 in the APIM shape for a missing or other subscription key, even with a valid token", async () => {
    const s = await session("demo");
    const missing = await api("demo", s.token, "/ClientIntegrationInformation", {
      subscriptionKey: null,
    });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({
      statusCode: 401,
      message: expect.stringContaining("missing subscription key"),
    });
    const other = await api("demo", s.token, "/ClientIntegrationInformation", {
      subscriptionKey: (await keys()).production.subscriptionKey,
    });
    expect(other.status).toBe(401);
    expect(await other.json()).toMatchObject({
      statusCode: 401,
      message: expect.stringContaining("invalid subscription key"),
    });
  });

  it("takes the subscription key from APIM's subscription-key query parameter too", async () => {
    const s = await session("demo");
    const sub = (await keys()).demo.subscriptionKey;
    const res = await api(
      "demo",
      s.token,
      `/ClientIntegrationInformation?subscription-key=${sub}`,
      { subscriptionKey: null },
    );
    expect(res.status).toBe(200);
  });
});

describe("v2 gate: transport", () => {
  it("refuses plain HTTP on a public host, lets loopback through", async () => {
    const s = await session("demo");
    const sub = (await keys()).demo.subscriptionKey;
    const headers = { authorization: `Bearer ${s.token}`, "ocp-apim-subscription-key": sub };
    const plain = await call("http://api.example.com/Demo/v2/ClientIntegrationInformation", {
      headers,
    });
    expect(plain.status).toBe(403);
    expect(await plain.json()).toMatchObject({
      statusCode: 403,
      message: expect.stringContaining("HTTPS"),
    });
    const local = await call("http://127.0.0.1:8788/Demo/v2/ClientIntegrationInformation", {
      headers,
    });
    expect(local.status).toBe(200);
  });

  it("answers APIM's 404 outside the API's roots", async () => {
    const res = await call("/Demo/v3/Customers");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: 404, message: "Resource not found" });
  });

  it("answers its root with where things are, the control API only when it is on", async () => {
    const res = await call("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      demo: { token: "POST /Demo/OAuth/Token", api: "/Demo/v2/…" },
      production: { token: "POST /OAuth/Token", api: "/v2/…" },
      control: expect.stringMatching(/^\/_sandbox\//),
      docs: expect.stringContaining("docs/sandbox.md"),
    });
    expect(rootAnswer({ SANDBOX_CONTROL: "false" }).control).toMatch(/^off/);
    expect(rootAnswer({}).control).toMatch(/^off/);
  });
});

describe("v2 gate: rate limit", () => {
  it("lets 10 calls a second through per subscription key, across clients, and answers 429 with Retry-After", async () => {
    const a = await session("demo");
    const b = await session("demo");
    await control("PUT", "/settings", { rateLimitPerSecond: 10 });
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).api("/ClientIntegrationInformation")),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const throttled = results.find((r) => r.status === 429) as Response;
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await throttled.json()).toEqual({
      statusCode: 429,
      message: expect.stringMatching(/^Rate limit is exceeded\. Try again in \d+ seconds\.$/),
    });
    const stats = await control<{ throttled: number }>("GET", "/stats");
    expect(stats.throttled).toBe(6);
  });

  it("counts per subscription key: another integration of the same client has its own 10 a second, and its token needs its own application key", async () => {
    const s = await session("demo");
    const { other } = (await keys()).demo;
    await control("PUT", "/settings", { rateLimitPerSecond: 10 });
    const basic = (applicationKey: string) => btoa(`${applicationKey}:${s.clientKey}`);
    // The other application's key with ledgergate's subscription key: no such integration.
    const mixed = await requestToken("demo", {
      basic: basic(other.applicationKey),
      subscriptionKey: (await keys()).demo.subscriptionKey,
    });
    expect(mixed.status).toBe(400);
    await mixed.arrayBuffer();
    const res = await requestToken("demo", {
      basic: basic(other.applicationKey),
      subscriptionKey: other.subscriptionKey,
    });
    expect(res.status).toBe(200);
    const otherToken = ((await res.json()) as { access_token: string }).access_token;
    // Held, and a second on: the token requests above have left both windows, and nothing ages.
    holdClock();
    await control("POST", "/clock/skip", { ms: 1000 }, 204);
    const ours = await Promise.all(
      Array.from({ length: 12 }, () => s.api("/ClientIntegrationInformation")),
    );
    expect(ours.map((r) => r.status).filter((x) => x === 429)).toHaveLength(2);
    const theirs = await Promise.all(
      Array.from({ length: 10 }, () =>
        api("demo", otherToken, "/ClientIntegrationInformation", {
          subscriptionKey: other.subscriptionKey,
        }),
      ),
    );
    expect(theirs.map((r) => r.status)).toEqual(Array(10).fill(200));
    const stats = await control<{ throttled: number }>("GET", "/stats");
    expect(stats.throttled).toBe(2);
  });

  it("logs its own 429 with the calls before it, by arrival and by when their sender says it sent them", async () => {
    const s = await session("demo");
    holdClock();
    await control("PUT", "/settings", { rateLimitPerSecond: 2 });
    await control("POST", "/clock/skip", { ms: 1000 }, 204);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      // Sent 600 ms apart by the sender's clock, arriving at once: squeezed in transit.
      const sent = Date.now();
      const statuses: number[] = [];
      for (const ms of [0, 600, 1200]) {
        const res = await s.api("/ClientIntegrationInformation", {
          headers: { "x-ledgergate-sent-at": String(sent + ms) },
        });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses).toEqual([200, 200, 429]);
      const lines = warn.mock.calls
        .map((c) => JSON.parse(String(c[0])) as Record<string, unknown>)
        .filter((l) => l.event === "sandbox-rate-limited");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        path: "/clientintegrationinformation",
        admittedMsBefore: [0, 0],
        sentMsBefore: [1200, 600],
      });
    } finally {
      warn.mockRestore();
    }
  });

  it("counts per fixed window when fixedWindowMs is set: a burst beyond one window's share draws 429s a rolling second would pass", async () => {
    const s = await session("demo");
    // 3 per fixed second: 7 at once pass 3, or at most 6 if they straddle a second's edge.
    await control("PUT", "/settings", { rateLimitPerSecond: 3, fixedWindowMs: 1000 });
    const results = await Promise.all(
      Array.from({ length: 7 }, () => s.api("/ClientIntegrationInformation")),
    );
    const passed = results.filter((r) => r.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(3);
    expect(passed).toBeLessThanOrEqual(6);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7 - passed);
    expect(await control("GET", "/settings")).toMatchObject({ demo: { fixedWindowMs: 1000 } });
    await control("PUT", "/settings", { fixedWindowMs: null });
    expect(await control("GET", "/settings")).toMatchObject({ demo: { fixedWindowMs: null } });
  });

  it("takes the calls it counts as older after POST /_sandbox/clock/skip: a full second frees up only once a whole second is skipped", async () => {
    const demo = await session("demo");
    const prod = await session("production");
    await control("PUT", "/settings", { rateLimitPerSecond: 3 });
    // The clock is held, so nothing ages but by the skips.
    holdClock();
    const burst = (s: typeof demo) =>
      Promise.all(Array.from({ length: 3 }, () => s.api("/ClientIntegrationInformation")));
    for (const s of [demo, prod])
      expect((await burst(s)).map((r) => r.status)).toEqual([200, 200, 200]);
    const next = (s: typeof demo) => s.api("/ClientIntegrationInformation").then((r) => r.status);
    expect(await next(demo)).toBe(429);
    await control("POST", "/clock/skip", { ms: 999 }, 204);
    expect(await next(demo)).toBe(429);
    await control("POST", "/clock/skip", { ms: 1 }, 204);
    // Both environments' windows moved, and each takes a full second's calls again.
    for (const s of [demo, prod])
      expect((await burst(s)).map((r) => r.status)).toEqual([200, 200, 200]);
    for (const bad of [{ ms: 0 }, { ms: 1.5 }, { ms: "1000" }, { ms: 367 * 86_400_000 }, {}])
      await control("POST", "/clock/skip", bad, 400);
  });

  it("keeps the environments' limits apart (one subscription key each)", async () => {
    const demo = await session("demo");
    const prod = await session("production");
    await control("PUT", "/settings", { rateLimitPerSecond: 3 });
    const d = await Promise.all(
      Array.from({ length: 3 }, () => demo.api("/ClientIntegrationInformation")),
    );
    const p = await Promise.all(
      Array.from({ length: 3 }, () => prod.api("/ClientIntegrationInformation")),
    );
    expect([...d, ...p].map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it("counts token requests against the limit too", async () => {
    const { clientKey } = await newClient("demo");
    await control("PUT", "/settings", { rateLimitPerSecond: 2 });
    await tokenFor("demo", clientKey);
    await tokenFor("demo", clientKey);
    const k = (await keys()).demo;
    const res = await call("/Demo/OAuth/Token", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${btoa(`${k.applicationKey}:${clientKey}`)}`,
        "ocp-apim-subscription-key": k.subscriptionKey,
      },
      body: "grant_type=client_credentials",
    });
    expect(res.status).toBe(429);
  });
});

describe("v2 gate: injected faults", () => {
  it("fails the token endpoint with a 5xx the given number of times", async () => {
    const { clientKey } = await newClient("demo");
    await control("PUT", "/settings", {
      faults: [{ kind: "error", target: "token", status: 503, count: 2 }],
    });
    const k = (await keys()).demo;
    const init = {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${btoa(`${k.applicationKey}:${clientKey}`)}`,
        "ocp-apim-subscription-key": k.subscriptionKey,
      },
      body: "grant_type=client_credentials",
    };
    expect((await call("/Demo/OAuth/Token", init)).status).toBe(503);
    expect((await call("/Demo/OAuth/Token", init)).status).toBe(503);
    expect((await call("/Demo/OAuth/Token", init)).status).toBe(200);
  });

  it("drops the connection without an answer", async () => {
    const s = await session("demo");
    await control("PUT", "/settings", { faults: [{ kind: "drop", target: "api", count: 1 }] });
    await expect(s.api("/ClientIntegrationInformation")).rejects.toThrow();
    expect((await s.api("/ClientIntegrationInformation")).status).toBe(200);
  });

  it("answers a 429 storm on matching paths only, with the given Retry-After", async () => {
    const s = await session("demo");
    await control("PUT", "/settings", {
      faults: [{ kind: "throttle", target: "api", path: "/Customers", retryAfterSeconds: 3 }],
    });
    for (let i = 0; i < 3; i++) {
      const res = await s.api("/customers");
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("3");
    }
    expect((await s.api("/ClientIntegrationInformation")).status).toBe(200);
    // Counted apart too, so a soak tells injected 429s from the rate limit's own.
    const stats = await control<{ throttled: number; throttledInjected: number }>("GET", "/stats");
    expect(stats).toMatchObject({ throttled: 3, throttledInjected: 3 });
  });

  it("adds the configured latency: an admitted call is held while the control API answers", async () => {
    const s = await session("demo");
    // Long beside one control round trip, so the order below holds on a loaded machine too.
    await control("PUT", "/settings", { latencyMs: 2000 });
    const { requests } = await control<{ requests: number }>("GET", "/stats");
    const order: string[] = [];
    const held = s.api("/ClientIntegrationInformation").then((res) => {
      order.push("answered");
      return res.status;
    });
    // The sandbox counts a call when it admits it, before the latency: look until it has (each look
    // is a round trip to the control API, so the held call goes on meanwhile).
    while ((await control<{ requests: number }>("GET", "/stats")).requests === requests);
    order.push("counted");
    expect(await held).toBe(200);
    expect(order).toEqual(["counted", "answered"]);
  });

  it("refuses a malformed settings document and keeps the old one", async () => {
    const before = await control("GET", "/settings");
    for (const bad of [
      { rateLimitPerSecond: "ten" },
      { fixedWindowMs: 5 },
      { faults: [{ kind: "explode" }] },
      { tokenLifetimeSeconds: 5, surprise: true },
    ]) {
      const res = await call("/_sandbox/settings", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(bad),
      });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(await control("GET", "/settings")).toEqual(before);
  });
});
