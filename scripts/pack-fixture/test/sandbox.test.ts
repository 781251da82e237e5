// Runs in a scratch project that installed the packed tarball (scripts/pack-check.mjs): the sandbox
// from `ledgergate/sandbox`, a client of it in three lines with `sandboxClient`, exactly as
// docs/sandbox.md shows them, and API v2 called through the typed client that gives.
import { env } from "cloudflare:workers";
import { sandboxClient } from "ledgergate/sandbox";
import type { V2Paths } from "ledgergate/client";
import { expect, it } from "vitest";

// docs/sandbox.md's test, as it shows it, plus one check of what it returns.
it("creates a customer", async () => {
  const { client, token, v2 } = await sandboxClient(env.SANDBOX);
  const { response } = await v2.POST("/Customers", { body: { Name: "Acme AS" } });
  expect(response.status).toBe(201);
  expect([client.clientKey, token]).not.toContain("");
});

it("calls API v2 with the typed client: create, read, page and filter", async () => {
  const { v2 } = await sandboxClient(env.SANDBOX);

  const created = await v2.POST("/Customers", {
    body: { Name: "Pack Check Kunde AS", EmailAddress: "post@pack-check.test" },
  });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  // The API answers its DTO; the document types 2XX bodies as unknown (passed on unchanged).
  const { Id, Number: customerNo } = created.data as { Id: number; Number: number };

  const read = await v2.GET("/Customers/{id}", { params: { path: { id: String(Id) } } });
  expect(read.response.status).toBe(200);
  expect(read.data).toMatchObject({ Id, Name: "Pack Check Kunde AS" });

  // Paging and filters are typed from the document's query parameters (shared/v2/query.ts).
  const page = await v2.GET("/Customers", {
    params: { query: { PageSize: 2, customerNos: `${customerNo}` } },
  });
  expect(page.response.status).toBe(200);
  expect(page.data).toEqual([expect.objectContaining({ Id })]);
});

it("gives each call a client of its own", async () => {
  const [a, b] = await Promise.all([sandboxClient(env.SANDBOX), sandboxClient(env.SANDBOX)]);
  expect(a.client.clientId).not.toBe(b.client.clientId);
});

// Typos do not compile (scripts/pack-check.mjs type-checks this file before running it), in the
// call itself: a misspelt body property beside a right one, and a misspelt query parameter.
export async function misspelt(): Promise<void> {
  const { v2 } = await sandboxClient(env.SANDBOX);
  // @ts-expect-error `Nmae` is not a property of the body
  await v2.POST("/Customers", { body: { Name: "Acme AS", Nmae: "Acme AS" } });
  // @ts-expect-error `PageSzie` is not a query parameter of GET /Customers
  await v2.GET("/Customers", { params: { query: { PageSize: 2, PageSzie: 2 } } });
  // @ts-expect-error GET /Customers/{id} needs its path parameter
  await v2.GET("/Customers/{id}");
}

// The path types are exported for code of your own, too.
type CustomerBody = NonNullable<
  V2Paths["/Customers"]["post"]["requestBody"]
>["content"]["application/json"];
export const body: CustomerBody = { Name: "x" };
