/**
 * The upstream transport: a redirect is never followed (the token and the subscription key never
 * leave for another origin), and a Retry-After is capped before it can pause a whole environment.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Bindings } from "../../src/kernel/config";
import { exchange, MAX_RETRY_AFTER_SECONDS, retryAfterSeconds } from "../../src/upstream/transport";

const API = "https://api.example/Demo/v2/Customers";
const ELSEWHERE = "https://elsewhere.example/collect";

/**
 * An API that answers 302 to another origin. It follows redirects as `fetch` does (the Fetch
 * standard's default mode is "follow": the request goes again, with its headers, to the Location)
 * unless the caller asks for "manual"; it records every request that arrives anywhere.
 */
function redirectingApi() {
  const arrived: { url: string; headers: Headers; redirect: RequestInit["redirect"] }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    arrived.push({ url, headers: new Headers(init.headers), redirect: init.redirect });
    if (url !== API) return new Response("collected");
    const redirect = new Response(null, { status: 302, headers: { location: ELSEWHERE } });
    return init.redirect === "manual" || init.redirect === "error"
      ? redirect
      : fetch(ELSEWHERE, init);
  };
  return { fetch, arrived };
}

const SECRETS = {
  authorization: "Bearer the-tenants-token",
  "ocp-apim-subscription-key": "the-subscription-key",
};

afterEach(() => vi.restoreAllMocks());

describe("transport: redirects", () => {
  it("through the SANDBOX binding: a 302 comes back as it is, and nothing reaches the other origin", async () => {
    const api = redirectingApi();
    const env = { SANDBOX: { fetch: api.fetch } } as unknown as Bindings;
    const result = await exchange(env, API, { method: "GET", headers: SECRETS });
    expect(result.ok && result.response.status).toBe(302);
    expect(api.arrived.map((a) => [a.url, a.redirect])).toEqual([[API, "manual"]]);
  });

  it("over the network (fetch): the same", async () => {
    const api = redirectingApi();
    vi.spyOn(globalThis, "fetch").mockImplementation(api.fetch);
    const result = await exchange({} as Bindings, API, {
      method: "POST",
      headers: SECRETS,
      body: "{}",
    });
    expect(result.ok && result.response.status).toBe(302);
    expect(api.arrived.some((a) => a.url === ELSEWHERE)).toBe(false);
    expect(api.arrived).toHaveLength(1);
  });
});

describe("transport: Retry-After", () => {
  it("reads delta-seconds and HTTP-dates, and caps both at 60 s", () => {
    expect(MAX_RETRY_AFTER_SECONDS).toBe(60);
    expect(retryAfterSeconds("2")).toBe(2);
    expect(retryAfterSeconds("3600")).toBe(60);
    expect(retryAfterSeconds(new Date(Date.now() + 10_000).toUTCString())).toBeLessThanOrEqual(10);
    expect(retryAfterSeconds(new Date(Date.now() + 86_400_000).toUTCString())).toBe(60);
    expect(retryAfterSeconds(null)).toBe(1);
    expect(retryAfterSeconds("soon")).toBe(1);
  });
});
