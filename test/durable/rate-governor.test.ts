import { beforeEach, describe, expect, it } from "vitest";
import { fresh, stats, tenant } from "../helpers/gateway";

beforeEach(() => fresh());

describe("rate governor: the shared 10 req/s", () => {
  it("100 calls offered at once reach the sandbox with zero 429s, all answered", async () => {
    const t = await tenant();
    const before = await stats();
    const results = await Promise.all(Array.from({ length: 100 }, () => t.v2("/ClientIntegrationInformation")));
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const after = await stats();
    expect(after.throttled - before.throttled).toBe(0);
    expect(after.requests - before.requests).toBe(100);
  });

  it("is fair: while tenant A offers 200 calls, tenant B's 5 calls all complete within 2.5 s", async () => {
    const a = await tenant();
    const b = await tenant();
    const bulk = Promise.all(Array.from({ length: 200 }, () => a.v2("/ClientIntegrationInformation").then((r) => r.status)));
    await scheduler.wait(300);
    const started = Date.now();
    const mine = await Promise.all(Array.from({ length: 5 }, () => b.v2("/ClientIntegrationInformation").then((r) => r.status)));
    const elapsed = Date.now() - started;
    expect(mine).toEqual([200, 200, 200, 200, 200]);
    expect(elapsed).toBeLessThan(2500);
    const statuses = await bulk;
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect((await stats()).throttled).toBe(0);
  });

  it("refuses at once, with 503 and Retry-After, a call whose wait would pass its deadline", async () => {
    const a = await tenant();
    const bulk = Promise.all(Array.from({ length: 40 }, () => a.v2("/ClientIntegrationInformation")));
    await scheduler.wait(100);
    const started = Date.now();
    const res = await a.v2("/ClientIntegrationInformation", { headers: { "x-deadline-ms": "500" } });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toMatchObject({ type: "https://ledgergate.dev/problems/unavailable" });
    expect(Date.now() - started).toBeLessThan(400);
    await bulk;
  });
});
