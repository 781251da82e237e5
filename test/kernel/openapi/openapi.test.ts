import { describe, expect, it } from "vitest";
import { createLedgergateClient } from "../../../client/index";
import { CATALOG } from "../../../shared/v2/catalog";
import { QUERY, RESOURCE_PARAMETERS } from "../../../shared/v2/query";
import app from "../../../src/index";
import { gatewayDocument } from "../../../src/kernel/openapi/gateway-document";
import { v2Document } from "../../../src/v2/openapi/document";
import { gw } from "../../helpers/gateway";

type Document = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        parameters?: {
          $ref?: string;
          name?: string;
          in?: string;
          required?: boolean;
          schema?: Record<string, unknown>;
        }[];
        requestBody?: { content: Record<string, unknown> };
      }
    >
  >;
};

async function document(path: string): Promise<Document> {
  const res = await gw(path);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return (await res.json()) as Document;
}

// Validity against the OpenAPI 3.1 schema is checked in Node (test/contract/openapi.test.ts): the
// validator cannot run in workerd. Here: the gateway serves the documents those functions build.

describe("openapi: /openapi.json", () => {
  it("is the OpenAPI 3.1 document named ledgergate with the deployed version", async () => {
    const doc = await document("/openapi.json");
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "ledgergate", version: "0.1.0" });
    expect(doc).toEqual(JSON.parse(JSON.stringify(gatewayDocument(app, "0.1.0"))));
  });

  it("declares every route mounted on the gateway, except the /v2 pass-through", async () => {
    const doc = await document("/openapi.json");
    const mounted = app.routes
      .filter(
        (r) => r.method !== "ALL" && !(r.path.startsWith("/v2/") && r.path !== "/v2/openapi.json"),
      )
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([^/]+)/g, "{$1}")}`);
    expect(mounted.length).toBeGreaterThan(10);
    const declared = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    );
    expect(new Set(declared)).toEqual(new Set(mounted));
    expect(declared.some((d) => d.startsWith("get /v2/") && d !== "get /v2/openapi.json")).toBe(
      false,
    );
  });
});

describe("openapi: /v2/openapi.json", () => {
  it("is the v2 document, served without a gateway key (before the /v2 pass-through)", async () => {
    const doc = await document("/v2/openapi.json");
    expect(doc).toEqual(JSON.parse(JSON.stringify(v2Document("0.1.0"))));
  });

  it("has every catalog operation, with a unique operation id", async () => {
    const doc = await document("/v2/openapi.json");
    for (const op of CATALOG)
      expect(doc.paths[op.path]?.[op.method.toLowerCase()], op.key).toBeDefined();
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((o) => o.operationId),
    );
    expect(ids).toHaveLength(CATALOG.length);
    expect(new Set(ids).size).toBe(CATALOG.length);
  });

  it("describes the gateway's additions where they apply", async () => {
    const doc = await document("/v2/openapi.json");
    const refs = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.parameters ?? []).map((p) => p.$ref ?? p.name);
    const patch = CATALOG.find((o) => o.method === "PATCH");
    const post = CATALOG.find((o) => o.method === "POST");
    expect(refs(post?.path ?? "", "post")).toContain("#/components/parameters/idempotencyKey");
    expect(Object.keys(doc.paths[patch?.path ?? ""]?.patch?.requestBody?.content ?? {})).toContain(
      "application/merge-patch+json",
    );
    expect(refs("/VatCodes", "get")).toEqual(
      expect.arrayContaining([
        "#/components/parameters/cacheControl",
        "#/components/parameters/preferPages",
      ]),
    );
    expect(refs("/VatCodes", "get")).not.toContain("#/components/parameters/idempotencyKey");
  });

  it("declares the query parameters of shared/v2/query.ts: paging and filters", async () => {
    const doc = await document("/v2/openapi.json");
    const query = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === "query");
    const customers = query("/Customers", "get");
    expect(customers.find((p) => p.name === "PageSize")).toMatchObject({
      required: false,
      schema: { type: "integer", minimum: 1, maximum: 20_000 },
    });
    expect(customers.find((p) => p.name === "customerNos")).toMatchObject({
      schema: { type: "string", pattern: expect.any(String) as unknown },
    });
    expect(query("/Customers/{id}", "get")).toEqual([]);
    expect(query("/TrialBalance", "get").find((p) => p.name === "date")).toMatchObject({
      required: true,
      schema: { type: "string", format: "date" },
    });
    const keys = new Set(CATALOG.map((op) => op.key));
    for (const [key, q] of Object.entries(QUERY)) {
      expect(keys.has(key), `${key} is an operation of the catalog`).toBe(true);
      const [method = "", path = ""] = key.split(" ");
      const names = [
        ...(q.paged ? RESOURCE_PARAMETERS.map((r) => r.name) : []),
        ...q.params.map((p) => p.name),
      ];
      expect(
        query(path, method.toLowerCase()).map((p) => p.name),
        key,
      ).toEqual(names);
    }
  });

  it("lets the generated client page and filter, and only with declared names", async () => {
    const urls: string[] = [];
    const lg = createLedgergateClient({
      baseUrl: "https://gateway.test",
      gatewayKey: "k",
      fetch: (request) => (urls.push(request.url), Promise.resolve(Response.json([]))),
    });
    await lg.v2.GET("/Customers", {
      params: { query: { PageSize: 10, customerNos: "10000-11000" } },
    });
    // @ts-expect-error `PageSzie` is not a query parameter of GET /Customers
    await lg.v2.GET("/Customers", { params: { query: { PageSzie: 2 } } });
    expect(Object.fromEntries(new URL(urls[0] ?? "").searchParams)).toEqual({
      PageSize: "10",
      customerNos: "10000-11000",
    });
  });
});

describe("openapi: the declared schemas validate, with the gateway's problems", () => {
  const admin = { authorization: "Bearer local-admin-token" };
  const post = (path: string, body: string, type = "application/json") =>
    gw(path, { method: "POST", headers: { ...admin, "content-type": type }, body });

  it("a body that fails its schema is 400 with each field", async () => {
    const res = await post(
      "/admin/tenants",
      JSON.stringify({ client: "Not A Slug", environment: "staging", clientKey: "k", extra: 1 }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as { type: string; errors: { path: string }[] };
    expect(body.type).toBe("https://ledgergate.dev/problems/validation-failed");
    expect(body.errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(["client", "environment", "extra"]),
    );
  });

  it("a body that is not JSON is 415, one that does not parse 400, a bad path parameter 404, a bad query 400", async () => {
    expect(
      (await post("/admin/tenants", "client=x", "application/x-www-form-urlencoded")).status,
    ).toBe(415);
    const malformed = await post("/admin/tenants", "{nope");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/bad-request",
    });
    expect((await gw("/admin/tenants/staging/acme/order-mapping", { headers: admin })).status).toBe(
      404,
    );
    const query = await gw("/orders?limit=0", {
      headers: { authorization: "Bearer lg_demo_acme_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
    });
    expect([400, 401]).toContain(query.status);
    expect(query.headers.get("content-type")).toBe("application/problem+json");
  });
});
