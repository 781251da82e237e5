import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { advanceClock, fresh, json, session } from "./helpers";

beforeEach(() => fresh());
afterEach(() => vi.useRealTimers());

type Api = Awaited<ReturnType<typeof session>>["api"];

async function create(api: Api, body: Record<string, unknown>) {
  const res = await api("/Customers", json(body));
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Record<string, unknown>;
}

async function customerCount(environment: string, clientId: string): Promise<number> {
  const ns = env.CLIENTS;
  return runInDurableObject(ns.get(ns.idFromName(`${environment}:${clientId}`)), (_i, state) => {
    const t = state.storage.sql
      .exec("SELECT name FROM sqlite_master WHERE name = 'records'")
      .toArray();
    return t.length
      ? state.storage.sql
          .exec<{ n: number }>("SELECT COUNT(*) AS n FROM records WHERE kind = 'Customer'")
          .one().n
      : 0;
  });
}

describe("Customers: happy", () => {
  it("creates a company with defaults and the API's field names, then gets it", async () => {
    const s = await session();
    const c = await create(s.api, {
      Name: "Fjord AS",
      OrganizationNumber: "923609016",
      EmailAddress: "post@fjord.no",
      MailAddress: { City: "Oslo", ZipCode: "0150" },
    });
    expect(c).toMatchObject({
      Id: expect.any(Number),
      Number: 10000,
      Name: "Fjord AS",
      IsPerson: false,
      CurrencyCode: "NOK",
      InvoiceDeliveryType: "Print",
      MailAddress: { City: "Oslo", ZipCode: "0150", CountryCode: "NO", Id: expect.any(Number) },
      SubledgerAccountId: expect.any(Number),
      CustomerCreatedDateTimeOffset: expect.any(String),
      LastChangedDateTimeOffset: expect.any(String),
    });
    const got = await s.api(`/Customers/${c.Id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(c);
  });

  it("creates a person from FirstName and LastName, numbering on", async () => {
    const s = await session();
    await create(s.api, { Name: "First" });
    const p = await create(s.api, {
      IsPerson: true,
      FirstName: "Kari",
      LastName: "Nordmann",
      InvoiceDeliveryType: "pdfbyemail",
    });
    expect(p).toMatchObject({
      Name: "Kari Nordmann",
      Number: 10001,
      InvoiceDeliveryType: "PdfByEmail",
    });
  });

  it("lists as a bare array with X-Pagination, pages with PageNumber/PageSize, 204 past the end and when empty", async () => {
    const s = await session();
    expect((await s.api("/Customers")).status).toBe(204);
    for (let i = 0; i < 5; i++) await create(s.api, { Name: `C${i}` });
    const first = await s.api("/Customers?PageSize=2&PageNumber=1");
    expect(first.status).toBe(200);
    const items = (await first.json()) as { Name: string }[];
    expect(items.map((c) => c.Name)).toEqual(["C0", "C1"]);
    const pagination = JSON.parse(first.headers.get("x-pagination") ?? "{}");
    expect(pagination).toMatchObject({
      totalCount: 5,
      pageSize: 2,
      currentPage: 1,
      totalPages: 3,
      previousPageLink: null,
    });
    expect(pagination.nextPageLink).toContain("PageNumber=2");
    const last = await s.api("/Customers?pagesize=2&pagenumber=3");
    expect(((await last.json()) as unknown[]).length).toBe(1);
    expect(JSON.parse(last.headers.get("x-pagination") ?? "{}").nextPageLink).toBeNull();
    expect((await s.api("/Customers?PageSize=2&PageNumber=4")).status).toBe(204);
  });

  it("filters by customerNos ranges, externalImportReference, organizationNumbers, emailAddresses and timestamps", async () => {
    const s = await session();
    await create(s.api, {
      Name: "A",
      ExternalImportReference: "shop-1",
      OrganizationNumber: "923609016",
      EmailAddress: "a@x.no",
    });
    await create(s.api, { Name: "B" });
    const c = await create(s.api, { Name: "C", Number: 10500, EmailAddress: "C@x.no" });
    const names = async (q: string) =>
      ((await (await s.api(`/Customers?${q}`)).json()) as { Name: string }[]).map((x) => x.Name);
    expect(await names("customerNos=10000, 10400-")).toEqual(["A", "C"]);
    expect(await names("externalImportReference=shop-1")).toEqual(["A"]);
    expect(await names("organizationNumbers=111111111,923609016")).toEqual(["A"]);
    expect(await names("emailAddresses=c@x.no")).toEqual(["C"]);
    expect(await names("Fields=Name&OrderBy=Number desc")).toEqual(["C", "B", "A"]);
    // A later creation, by the clock the sandbox stamps it with.
    advanceClock(1000);
    await create(s.api, { Name: "D" });
    const since = encodeURIComponent(
      String(c.CustomerCreatedDateTimeOffset).replace("Z", "+00:00"),
    );
    expect(await names(`customerCreatedDateTimeOffsetGreaterThan=${since}`)).toEqual(["D"]);
    expect(await names(`lastChangedDateTimeOffsetGreaterThan=${since}`)).toEqual(["D"]);
  });

  it("projects with Fields", async () => {
    const s = await session();
    await create(s.api, { Name: "A" });
    expect(await (await s.api("/Customers?Fields=Id,Name")).json()).toEqual([
      { Id: expect.any(Number), Name: "A" },
    ]);
  });

  it("patches with JSON Patch and answers the updated customer", async () => {
    const s = await session();
    const c = await create(s.api, { Name: "Old", MailAddress: { City: "Oslo", ZipCode: "0150" } });
    const res = await s.api(
      `/Customers/${c.Id}`,
      json(
        [
          { op: "replace", path: "/Name", value: "New" },
          { op: "add", path: "/EmailAddress", value: "n@x.no" },
          { op: "replace", path: "/MailAddress/City", value: "Bergen" },
        ],
        "PATCH",
        "application/json-patch+json",
      ),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      Id: c.Id,
      Number: c.Number,
      Name: "New",
      EmailAddress: "n@x.no",
      MailAddress: { City: "Bergen" },
    });
  });

  it("deletes with 200 and no body; then 404", async () => {
    const s = await session();
    const c = await create(s.api, { Name: "Gone" });
    const del = await s.api(`/Customers/${c.Id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await del.text()).toBe("");
    expect((await s.api(`/Customers/${c.Id}`)).status).toBe(404);
  });
});

describe("Customers: refused", () => {
  it("answers 404 ProblemDetails for an unknown id, and 400 for a non-numeric one", async () => {
    const s = await session();
    const res = await s.api("/Customers/12345");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(await res.json()).toMatchObject({
      title: "Object(s) not found",
      detail: "Customer with id = 12345 not found.",
      status: 404,
    });
    expect((await s.api("/Customers/abc")).status).toBe(400);
  });

  it("refuses malformed JSON, unknown fields, wrong types, missing required fields, and stores nothing", async () => {
    const s = await session();
    const bodies: [RequestInit, string][] = [
      [{ method: "POST", headers: { "content-type": "application/json" }, body: "{ Name: " }, "$"],
      [json({ Name: "X", Nmae: "typo" }), "Nmae"],
      [json({ name: "camel" }), "name"],
      [json({ Name: 42 }), "Name"],
      [json({ Name: "X", InvoiceDeliveryType: 1 }), "InvoiceDeliveryType"],
      [json({ Name: "X", InvoiceDeliveryType: "Pigeon" }), "InvoiceDeliveryType"],
      [json({ IsPerson: true, FirstName: "Kari" }), "LastName"],
      [json({ EmailAddress: "no-name@x.no" }), "Name"],
      [json({ Name: "X", MailAddress: { City: "Oslo" } }), "MailAddress.ZipCode"],
    ];
    for (const [init, field] of bodies) {
      const res = await s.api("/Customers", init);
      expect(res.status, String(init.body)).toBe(400);
      const problem = (await res.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(problem.errors), String(init.body)).toContain(field);
    }
    expect(await customerCount("demo", s.clientId)).toBe(0);
  });

  it("refuses an oversized body with 413 and a body of another media type with 415", async () => {
    const s = await session();
    const big = await s.api("/Customers", json({ Name: "X", WebsiteUrl: "x".repeat(1_100_000) }));
    expect(big.status).toBe(413);
    const xml = await s.api("/Customers", {
      method: "POST",
      headers: { "content-type": "application/xml" },
      body: "<Name/>",
    });
    expect(xml.status).toBe(415);
    expect(await customerCount("demo", s.clientId)).toBe(0);
  });

  it("refuses a duplicate ExternalImportReference or Number as the API words it", async () => {
    const s = await session();
    const a = await create(s.api, { Name: "A", ExternalImportReference: "ABC123", Number: 10010 });
    const dup = await s.api("/Customers", json({ Name: "B", ExternalImportReference: "ABC123" }));
    expect(dup.status).toBe(400);
    expect(await dup.json()).toMatchObject({
      title: "Customer validation error(s)",
      detail: `ExternalImportReference is already in use. 'ABC123' is used on (contact) Id = ${a.Id}.`,
    });
    expect((await s.api("/Customers", json({ Name: "C", Number: 10010 }))).status).toBe(400);
    expect((await s.api("/Customers", json({ Name: "D", Number: 5 }))).status).toBe(400);
    expect(await customerCount("demo", s.clientId)).toBe(1);
  });

  it("refuses a PATCH that is not JSON Patch, touches a read-only field, or fails a test op; nothing changes", async () => {
    const s = await session();
    const c = await create(s.api, { Name: "Keep" });
    const patch = (ops: unknown, type = "application/json-patch+json") =>
      s.api(`/Customers/${c.Id}`, json(ops, "PATCH", type));
    expect(
      (await patch([{ op: "replace", path: "/Name", value: "X" }], "application/json")).status,
    ).toBe(415);
    expect((await patch({ Name: "X" })).status).toBe(400);
    expect((await patch([{ op: "replace", path: "/Id", value: 1 }])).status).toBe(400);
    expect((await patch([{ op: "replace", path: "/name", value: "X" }])).status).toBe(400);
    expect(
      (
        await patch([
          { op: "replace", path: "/Name", value: "X" },
          { op: "test", path: "/Name", value: "Y" },
        ])
      ).status,
    ).toBe(400);
    expect((await patch([{ op: "remove", path: "/Name" }])).status).toBe(400);
    expect(await (await s.api(`/Customers/${c.Id}`)).json()).toEqual(c);
  });

  it("refuses OData paging and bad ResourceParameters with 400", async () => {
    const s = await session();
    await create(s.api, { Name: "A" });
    for (const q of [
      "$top=1",
      "$skip=1",
      "PageSize=20001",
      "PageNumber=0",
      "Fields=Id;Name",
      "Fields=Nope",
      "OrderBy=Name sideways",
      "customerNos=abc",
      "contactGroupIds=1-4",
    ]) {
      const res = await s.api(`/Customers?${q}`);
      expect(res.status, q).toBe(400);
    }
    expect((await s.api("/Customers?contactGroupIds=41345")).status).toBe(404);
  });
});

describe("Customers: each client's data is its own", () => {
  it("one client's customer is not found with another client's token, in either environment", async () => {
    const a = await session("demo");
    const b = await session("demo");
    const p = await session("production");
    const c = await create(a.api, { Name: "Private" });
    expect((await b.api(`/Customers/${c.Id}`)).status).toBe(404);
    expect((await b.api("/Customers")).status).toBe(204);
    expect((await p.api(`/Customers/${c.Id}`)).status).toBe(404);
    expect((await b.api(`/Customers/${c.Id}`, { method: "DELETE" })).status).toBe(404);
    expect((await a.api(`/Customers/${c.Id}`)).status).toBe(200);
  });
});
