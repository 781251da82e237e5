// Runs in a scratch project that installed the packed tarball (scripts/pack-check.mjs): the sandbox
// from `ledgergate/sandbox`, called through `ledgergate/client`'s typed v2 client. The gateway is
// not in the package, so the client talks to the sandbox's demo root directly, with a sandbox token
// as its bearer and the subscription key added by its `fetch`.
import { env } from "cloudflare:workers";
import { createLedgergateClient, type V2Paths } from "ledgergate/client";
import { expect, it } from "vitest";

const api = env.ACCOUNTING_API;
const ORIGIN = "https://sandbox.test";

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await api.fetch(`${ORIGIN}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  return (await res.json()) as T;
}

it("creates a client, gets a token and calls API v2 with the typed client", async () => {
  const keys = await control<{ demo: { applicationKey: string; subscriptionKey: string } }>(
    "GET",
    "/keys",
  );
  const client = await control<{ clientId: string; clientKey: string }>("POST", "/clients", {
    environment: "demo",
    name: "Pack Check AS",
  });

  const tokenRes = await api.fetch(`${ORIGIN}/Demo/OAuth/Token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${keys.demo.applicationKey}:${client.clientKey}`)}`,
      "ocp-apim-subscription-key": keys.demo.subscriptionKey,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  expect(tokenRes.status).toBe(200);
  const { access_token: token } = (await tokenRes.json()) as { access_token: string };

  const lg = createLedgergateClient({
    baseUrl: `${ORIGIN}/Demo`,
    gatewayKey: token,
    fetch: (request) => {
      const headers = new Headers(request.headers);
      headers.set("ocp-apim-subscription-key", keys.demo.subscriptionKey);
      return api.fetch(new Request(request, { headers }));
    },
  });

  const created = await lg.v2.POST("/Customers", {
    body: { Name: "Pack Check Kunde AS", EmailAddress: "post@pack-check.test" },
  });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  // The API answers its DTO; the document types 2XX bodies as unknown (passed on unchanged).
  const { Id } = created.data as { Id: number };

  const read = await lg.v2.GET("/Customers/{id}", { params: { path: { id: String(Id) } } });
  expect(read.response.status).toBe(200);
  expect(read.data).toMatchObject({ Id, Name: "Pack Check Kunde AS" });

  // Paging and filters are typed from the document's query parameters (shared/v2/query.ts).
  const page = await lg.v2.GET("/Customers", {
    params: {
      query: { PageSize: 2, customerNos: `${(created.data as { Number: number }).Number}` },
    },
  });
  expect(page.response.status).toBe(200);
  expect(page.data).toEqual([expect.objectContaining({ Id })]);
});

// The v2 types are live, not `any`: a misspelt property of the Customers body does not compile
// (scripts/pack-check.mjs type-checks this file before running it).
type CustomerBody = NonNullable<
  V2Paths["/Customers"]["post"]["requestBody"]
>["content"]["application/json"];
// @ts-expect-error `Nmae` is not a property of the body
export const misspelt: CustomerBody = { Nmae: "x" };

// Query parameters too: paging and filters are typed, and an unknown name does not compile.
type CustomersQuery = NonNullable<V2Paths["/Customers"]["get"]["parameters"]["query"]>;
export const paged: CustomersQuery = { PageSize: 2, customerNos: "10000-11000, 12000, 13000-" };
// @ts-expect-error `PageSzie` is not a query parameter of GET /Customers
export const misspeltQuery: CustomersQuery = { PageSzie: 2 };
