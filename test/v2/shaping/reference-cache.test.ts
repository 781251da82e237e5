import { beforeEach, describe, expect, it } from "vitest";
import { control, fresh, gw, json, stats, tenant } from "../../helpers/gateway";

beforeEach(() => fresh());

type Tenant = Awaited<ReturnType<typeof tenant>>;

/**
 * Upstream calls made by `run` (the sandbox's request counter; the tenant's token is already warm).
 */
async function calls<T>(run: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const before = (await stats()).requests;
  const value = await run();
  return { value, calls: (await stats()).requests - before };
}

/** A GET, its answer read whole. */
async function read(t: Tenant, path: string, headers: Record<string, string> = {}) {
  const res = await t.v2(path, { headers });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

const maxAge = (h: Headers) =>
  Number(/max-age=(\d+)/.exec(h.get("cache-control") ?? "")?.[1] ?? "NaN");

describe("reference cache: happy", () => {
  it("a second GET /v2/VatCodes makes no upstream call and answers the same, with Age, Cache-Control and X-Cache", async () => {
    const t = await tenant();
    const miss = await calls(() => read(t, "/VatCodes"));
    expect([miss.value.status, miss.calls, miss.value.headers.get("x-cache")]).toEqual([
      200,
      1,
      "miss",
    ]);
    expect(miss.value.headers.get("cache-control")).toBe("private, max-age=300");
    expect(miss.value.headers.get("age")).toBe("0");
    const hit = await calls(() => read(t, "/VatCodes"));
    expect([hit.value.status, hit.calls, hit.value.headers.get("x-cache")]).toEqual([
      200,
      0,
      "hit",
    ]);
    expect(hit.value.body).toBe(miss.value.body);
    expect(hit.value.headers.get("content-type")).toBe(miss.value.headers.get("content-type"));
    expect(hit.value.headers.get("x-request-id")).toBeTruthy();
    expect(Number(hit.value.headers.get("age"))).toBeGreaterThanOrEqual(0);
    expect(maxAge(hit.value.headers)).toBeGreaterThan(0);
    expect(maxAge(hit.value.headers)).toBeLessThanOrEqual(300);
  });

  it("files each query apart, and caches settings and the chart of accounts too", async () => {
    const t = await tenant();
    const first = await calls(async () => [
      await read(t, "/VatCodes?Fields=Code"),
      await read(t, "/VatCodes"),
      await read(t, "/GeneralLedgerAccounts"),
      await read(t, "/VatSettings"),
    ]);
    expect(first.calls).toBe(4);
    const again = await calls(async () => [
      await read(t, "/VatCodes?Fields=Code"),
      await read(t, "/VatCodes"),
      await read(t, "/GeneralLedgerAccounts"),
      await read(t, "/VatSettings"),
    ]);
    expect(again.calls).toBe(0);
    expect(again.value.map((r) => r.body)).toEqual(first.value.map((r) => r.body));
  });

  it("a write through the gateway to the resource forgets it (any casing), so the next read shows the change", async () => {
    const t = await tenant();
    await read(t, "/PaymentTerms");
    expect((await calls(() => read(t, "/PaymentTerms"))).calls).toBe(0);
    expect((await t.v2("/paymentterms", json({ Name: "60 dager", CreditDays: 60 }))).status).toBe(
      201,
    );
    const after = await calls(() => read(t, "/PaymentTerms"));
    expect([after.calls, after.value.headers.get("x-cache")]).toEqual([1, "miss"]);
    expect(after.value.body).toContain("60 dager");
    // A write to another resource leaves it be.
    expect((await t.v2("/Customers", json({ Name: "Other AS" }))).status).toBe(201);
    expect((await calls(() => read(t, "/PaymentTerms"))).calls).toBe(0);
  });

  it("a write invalidates it even when the API refuses the write", async () => {
    const t = await tenant();
    await read(t, "/PaymentTerms");
    await control("PUT", "/settings", {
      faults: [{ kind: "error", target: "api", path: "/PaymentTerms", status: 500, count: 1 }],
    });
    const refused = await t.v2("/PaymentTerms", json({ Name: "90 dager", CreditDays: 90 }));
    expect(refused.status).toBe(500);
    expect((await calls(() => read(t, "/PaymentTerms"))).calls).toBe(1);
  });

  it("a write the gateway refuses (no such operation) sends nothing and keeps the entry", async () => {
    const t = await tenant();
    await read(t, "/VatCodes");
    const refused = await calls(() => t.v2("/VatCodes", json({ Code: "X" })));
    expect(refused.calls).toBe(0);
    expect(refused.value.status).toBe(405);
    expect((await calls(() => read(t, "/VatCodes"))).calls).toBe(0);
  });

  it("a write whose connection dropped still invalidates (it may have been applied)", async () => {
    const t = await tenant();
    await read(t, "/PaymentTerms");
    await control("PUT", "/settings", {
      faults: [{ kind: "drop", target: "api", path: "/PaymentTerms", count: 1 }],
    });
    expect((await t.v2("/PaymentTerms", json({ Name: "90 dager", CreditDays: 90 }))).status).toBe(
      502,
    );
    expect((await calls(() => read(t, "/PaymentTerms"))).calls).toBe(1);
  });

  it("Cache-Control: no-cache (or Pragma: no-cache) goes upstream and refreshes the entry", async () => {
    const t = await tenant();
    await read(t, "/Currencies");
    const asks: Record<string, string>[] = [
      { "cache-control": "no-cache" },
      { pragma: "no-cache" },
    ];
    for (const headers of asks) {
      const forced = await calls(() => read(t, "/Currencies", headers));
      expect([
        forced.calls,
        forced.value.headers.get("x-cache"),
        forced.value.headers.get("age"),
      ]).toEqual([1, "miss", "0"]);
    }
    const hit = await calls(() => read(t, "/Currencies"));
    expect([hit.calls, hit.value.headers.get("x-cache")]).toEqual([0, "hit"]);
  });
});

describe("reference cache: what is not cached", () => {
  it("only 200 answers: a 404 goes upstream every time", async () => {
    const t = await tenant();
    const twice = await calls(async () => [
      await read(t, "/GeneralLedgerAccounts/999999"),
      await read(t, "/GeneralLedgerAccounts/999999"),
    ]);
    expect(twice.value.map((r) => r.status)).toEqual([404, 404]);
    expect(twice.calls).toBe(2);
  });

  it("other resources and conditional GETs are the plain pass-through", async () => {
    const t = await tenant();
    const plain = await calls(async () => [
      await read(t, "/Customers"),
      await read(t, "/Customers"),
    ]);
    expect(plain.calls).toBe(2);
    expect(plain.value.map((r) => r.headers.get("x-cache"))).toEqual([null, null]);
    await read(t, "/VatCodes");
    const conditional = await calls(() => read(t, "/VatCodes", { "if-none-match": '"abc"' }));
    expect([conditional.calls, conditional.value.headers.get("x-cache")]).toEqual([1, null]);
  });
});

describe("reference cache: security", () => {
  it("is per tenant: tenant B's read is its own miss", async () => {
    const a = await tenant();
    const b = await tenant();
    await read(a, "/VatCodes");
    const theirs = await calls(() => read(b, "/VatCodes"));
    expect([theirs.calls, theirs.value.headers.get("x-cache")]).toEqual([1, "miss"]);
  });

  it("a cached answer needs a valid gateway key", async () => {
    const t = await tenant();
    await read(t, "/VatCodes");
    const forged = await calls(() =>
      gw("/v2/VatCodes", { headers: { authorization: `Bearer ${t.gatewayKey.slice(0, -2)}xx` } }),
    );
    expect([forged.value.status, forged.calls]).toEqual([401, 0]);
  });
});
