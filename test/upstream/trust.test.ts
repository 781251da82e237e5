/**
 * Through the gateway and the sandbox: what comes back from the API is not trusted further than
 * it must be (links, Retry-After), and a path cannot be spelt so that the API acts on another
 * operation than the one whose body the gateway validated.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ECHO_MS } from "../../src/upstream/rate/pacer";
import { restoreClock, skipAhead } from "../helpers/clock";
import { control, evictGovernor, fresh, json, stats, tenant } from "../helpers/gateway";

beforeEach(() => fresh());
afterEach(restoreClock);

describe("upstream trust: links", () => {
  it("X-Pagination's page links point at the gateway, and following one with the gateway key gives that page", async () => {
    const t = await tenant();
    for (const Name of ["Alfa AS", "Bravo AS", "Charlie AS"])
      expect((await t.v2("/Customers", json({ Name }))).status).toBe(201);
    const page = await t.v2("/Customers?PageSize=1&PageNumber=2");
    expect(page.status).toBe(200);
    const header = page.headers.get("x-pagination") ?? "";
    expect(header).not.toMatch(/sandbox\.ledgergate\.local/i);
    const p = JSON.parse(header) as { previousPageLink: string; nextPageLink: string };
    expect(p.previousPageLink).toBe("https://gateway.test/v2/Customers?PageSize=1&PageNumber=1");
    expect(p.nextPageLink).toBe("https://gateway.test/v2/Customers?PageSize=1&PageNumber=3");
    const next = await t.v2(p.nextPageLink.slice("https://gateway.test/v2".length));
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual([expect.objectContaining({ Name: "Charlie AS" })]);
    expect(JSON.parse(next.headers.get("x-pagination") ?? "{}")).toMatchObject({
      currentPage: 3,
      nextPageLink: null,
    });
  });
});

describe("upstream trust: encoded paths", () => {
  it("/v2/%43ustomers is /Customers: its body is validated and nothing bad is sent; a double-encoded slash is refused", async () => {
    const t = await tenant();
    const before = (await stats()).requests;
    const invalid = await t.v2("/%43ustomers", json({ Name: "X", Nmae: "typo" }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/validation-failed",
      errors: [expect.objectContaining({ path: "Nmae" })],
    });
    for (const path of [
      "/Customers/1%252f..%252f..%252fadmin",
      "/%2543ustomers",
      "/Customers/%2%46",
    ]) {
      const res = await t.v2(path);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toMatchObject({
        type: "https://ledgergate.dev/problems/bad-request",
      });
    }
    expect((await stats()).requests).toBe(before);
    // Spelt either way, a valid call is the same call.
    expect((await t.v2("/%43ustomers", json({ Name: "Fjord AS" }))).status).toBe(201);
  });
});

// Last in the file: it pauses the production environment, and evicts its governor afterwards.
describe("upstream trust: Retry-After", () => {
  it("an hour's Retry-After on repeated 429s pauses the environment for at most 60 s; the caller still sees the API's own header", async () => {
    const t = await tenant("production");
    await control("PUT", "/settings", {
      faults: [{ kind: "throttle", target: "api", count: 2, retryAfterSeconds: 3600 }],
    });
    try {
      // The first 429 only nudges the pace; a second one after its echo second (by the governor's
      // clock, moved on with no wait) pauses the environment.
      for (const name of ["Nudged AS", "Paused AS"]) {
        if (name === "Paused AS") await skipAhead(ECHO_MS);
        const write = await t.v2("/Customers", json({ Name: name }));
        expect(write.status).toBe(429);
        expect(write.headers.get("retry-after")).toBe("3600");
      }
      // The environment is paused: a call that may wait 2 s is refused at once, told when to come
      // back.
      const refused = await t.v2("/Customers", { headers: { "x-deadline-ms": "2000" } });
      expect(refused.status).toBe(503);
      const wait = Number(refused.headers.get("retry-after"));
      expect(wait).toBeGreaterThan(1);
      expect(wait).toBeLessThanOrEqual(60);
    } finally {
      // The pause lives in the governor's memory only: eviction ends it for whatever runs next.
      await evictGovernor("production");
    }
  });
});
