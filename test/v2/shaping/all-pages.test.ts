/**
 * `Prefer: pages=all` through `/v2`: one streamed JSON array of every page, one upstream call per
 * page; the row cap and the deadline refuse a walk before a byte is streamed, and a walk that
 * fails midway aborts the body instead of ending a short array.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { control, fresh, json, stats, tenant } from "../../helpers/gateway";

beforeEach(() => fresh());

type Tenant = Awaited<ReturnType<typeof tenant>>;
const requests = async () => (await stats()).requests;
const all = (extra = ""): RequestInit => ({ headers: { prefer: `pages=all${extra}` } });

async function departments(t: Tenant, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const res = await t.v2("/Departments", json({ Code: `D${i}`, Name: `Avdeling ${i}` }));
    expect(res.status).toBe(201);
    ids.push(((await res.json()) as { Id: number }).Id);
  }
  return ids;
}

/**
 * A sales order with `n` lines, made in two calls (its customer, then the order): a list of `n`
 * rows at `/SalesOrders/{id}/Lines`, for walks longer than the smallest page size.
 */
async function orderLines(t: Tenant, n: number): Promise<string> {
  const customer = await t.v2("/Customers", json({ Name: "Fjord AS" }));
  const { Number: CustomerNo } = (await customer.json()) as { Number: number };
  const SalesOrderLines = Array.from({ length: n }, (_, i) => ({
    Description: `Linje ${i + 1}`,
    Quantity: 1,
    ProductUnitPrice: i + 1,
  }));
  const res = await t.v2("/SalesOrders/Complete", json({ CustomerNo, SalesOrderLines }));
  expect(res.status, await res.clone().text()).toBe(201);
  return `/SalesOrders/${((await res.json()) as { Id: number }).Id}/Lines`;
}

describe("pages=all: happy", () => {
  it("returns every row once, in order, over 3 pages in 3 upstream calls, with the total and no X-Pagination", async () => {
    const t = await tenant();
    const lines = await orderLines(t, 600);
    const n = await requests();
    const res = await t.v2(`${lines}?PageSize=250&Fields=Description`, all());
    expect(res.status).toBe(200);
    expect(res.headers.get("preference-applied")).toBe("pages=all");
    expect(res.headers.get("x-total-count")).toBe("600");
    expect(res.headers.get("x-page-size")).toBe("250");
    expect(res.headers.get("x-pagination")).toBeNull();
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const rows = (await res.json()) as { Description: string }[];
    expect(rows.map((r) => r.Description)).toEqual(
      Array.from({ length: 600 }, (_, i) => `Linje ${i + 1}`),
    );
    expect((await requests()) - n).toBe(3);
  });

  it("starts at the caller's PageNumber, and answers an empty list (204 upstream) as []", async () => {
    const t = await tenant();
    const lines = await orderLines(t, 600);
    const rest = await t.v2(`${lines}?pagenumber=2&PageSize=250&Fields=Description`, all());
    const rows = (await rest.json()) as { Description: string }[];
    expect(rows).toHaveLength(350);
    expect(rows[0]).toEqual({ Description: "Linje 251" });
    const empty = await t.v2("/Projects?PageSize=3", all());
    expect(empty.status).toBe(200);
    expect(empty.headers.get("preference-applied")).toBe("pages=all");
    expect(empty.headers.get("x-total-count")).toBe("0");
    expect(await empty.json()).toEqual([]);
  });

  it("does not apply to an item, and passes a first page the API refused back as its answer", async () => {
    const t = await tenant();
    const [id] = await departments(t, 1);
    const item = await t.v2(`/Departments/${id}`, all());
    expect(item.status).toBe(200);
    expect(item.headers.get("preference-applied")).toBeNull();
    expect(await item.json()).toMatchObject({ Id: id, Code: "D1" });
    const n = await requests();
    const refused = await t.v2("/Departments?PageSize=0", all());
    expect(refused.status).toBe(400);
    expect(refused.headers.get("preference-applied")).toBeNull();
    expect(await refused.json()).toMatchObject({ title: "Invalid resourceParameter" });
    expect((await requests()) - n).toBe(1);
  });
});

describe("pages=all: bounds", () => {
  it("a PageSize below the smallest one a walk takes is raised to it: 25 rows with PageSize=1 in one upstream call", async () => {
    const t = await tenant();
    const lines = await orderLines(t, 25);
    const n = await requests();
    const res = await t.v2(`${lines}?PageSize=1`, all());
    expect(res.status).toBe(200);
    expect(res.headers.get("x-page-size")).toBe("250");
    expect(await res.json()).toHaveLength(25);
    expect((await requests()) - n).toBe(1);
  });

  it("a raised PageSize under a PageNumber past 1 is refused before anything is sent", async () => {
    const t = await tenant();
    const n = await requests();
    const res = await t.v2("/Departments?PageSize=10&PageNumber=3", all());
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { type: string; detail: string };
    expect(problem.type).toBe("https://ledgergate.dev/problems/bad-request");
    expect(problem.detail).toMatch(/at least 250\b/);
    expect((await requests()) - n).toBe(0);
  });

  it("beyond the row cap (lowered per request with max-rows) is a 422 problem after only the first page's call", async () => {
    const t = await tenant();
    const n = await requests();
    const res = await t.v2("/GeneralLedgerAccounts?PageSize=3", all(", max-rows=5"));
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await res.json()) as { type: string; detail: string };
    expect(problem.type).toBe("https://ledgergate.dev/problems/too-many-rows");
    expect(problem.detail).toMatch(/at most 5\b/);
    expect((await requests()) - n).toBe(1);
  });

  it("within a lowered cap, says so in Preference-Applied", async () => {
    const t = await tenant();
    await departments(t, 2);
    const res = await t.v2("/Departments", all(", max-rows=5"));
    expect(res.headers.get("preference-applied")).toBe("pages=all, max-rows=5");
    expect(await res.json()).toHaveLength(2);
  });

  it("refuses a walk that cannot fit the deadline at the rate limit, after only the first page's call", async () => {
    const t = await tenant();
    const lines = await orderLines(t, 10_000);
    const n = await requests();
    // 40 pages of 250: 39 more permits take at least 3.9 s at 10 a second, twice the deadline; the
    // first page has 2 s to come back, so a loaded machine does not turn the 422 into a 503.
    const res = await t.v2(`${lines}?PageSize=250&Fields=Id`, {
      headers: { prefer: "pages=all", "x-deadline-ms": "2000" },
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/deadline-too-short",
    });
    expect((await requests()) - n).toBe(1);
  });

  it("a deadline that passes mid-walk aborts the body: never a complete-looking array", async () => {
    const t = await tenant();
    const lines = await orderLines(t, 2000);
    // Each call takes 800 ms: the first page and the estimate (7 more permits, 0.7 s) fit 4 s with
    // 2.5 s to spare on a loaded machine; 8 pages (6.4 s at least) do not.
    await control("PUT", "/settings", { latencyMs: 800 });
    const res = await t.v2(`${lines}?PageSize=250&Fields=Id`, {
      headers: { prefer: "pages=all", "x-deadline-ms": "4000" },
    });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });
});
