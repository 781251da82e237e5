/**
 * Links in the API's headers reach a caller only pointed at the gateway: `upstream/links.ts`.
 */
import { describe, expect, it } from "vitest";
import { gatewayLink, gatewayPagination } from "../../src/upstream/links";

const ROOT = "https://goapi.poweroffice.net/Demo/v2";
const GW = "https://gw.example";
const link = (l: string) => gatewayLink(l, ROOT, GW);

describe("links: rewritten to the gateway", () => {
  it("a link below the API root becomes the same path and query below the gateway's /v2, whatever the root's case", () => {
    expect(link(`${ROOT}/Customers?PageSize=1&PageNumber=2`)).toBe(
      `${GW}/v2/Customers?PageSize=1&PageNumber=2`,
    );
    expect(link("https://goapi.poweroffice.net/demo/V2/SalesOrders/sentState?id=4")).toBe(
      `${GW}/v2/SalesOrders/sentState?id=4`,
    );
    expect(link(ROOT)).toBe(`${GW}/v2`);
  });

  it("a relative link is read against the API root", () => {
    expect(link("/Demo/v2/Customers/7")).toBe(`${GW}/v2/Customers/7`);
    expect(link("Customers?PageNumber=3")).toBe(`${GW}/v2/Customers?PageNumber=3`);
  });
});

describe("links: never an upstream URL", () => {
  it("drops a link to another host, scheme, port, path or with credentials in it", () => {
    for (const l of [
      "https://evil.example/Demo/v2/Customers",
      "http://goapi.poweroffice.net/Demo/v2/Customers",
      "https://goapi.poweroffice.net:8443/Demo/v2/Customers",
      "https://goapi.poweroffice.net/v2/Customers",
      "https://goapi.poweroffice.net/Demo/v2evil/Customers",
      "https://goapi.poweroffice.net/Demo/OAuth/Token",
      "https://user:pw@goapi.poweroffice.net/Demo/v2/Customers",
      "//evil.example/Demo/v2/Customers",
    ]) {
      expect(link(l), l).toBeNull();
    }
  });

  it("rewrites X-Pagination's page links, drops foreign ones, and keeps its counts", () => {
    const header = JSON.stringify({
      totalCount: 3,
      pageSize: 1,
      currentPage: 2,
      totalPages: 3,
      previousPageLink: `${ROOT}/Customers?PageNumber=1`,
      nextPageLink: "https://evil.example/x",
      firstPageLink: "/Demo/v2/Customers",
      note: "https://elsewhere.example/",
      nested: { url: `${ROOT}/x` },
    });
    expect(JSON.parse(gatewayPagination(header, ROOT, GW) ?? "null")).toEqual({
      totalCount: 3,
      pageSize: 1,
      currentPage: 2,
      totalPages: 3,
      previousPageLink: `${GW}/v2/Customers?PageNumber=1`,
      nextPageLink: null,
      firstPageLink: `${GW}/v2/Customers`,
      note: null,
      nested: null,
    });
    expect(gatewayPagination(JSON.stringify({ nextPageLink: null }), ROOT, GW)).toBe(
      '{"nextPageLink":null}',
    );
  });

  it("drops an X-Pagination it cannot read", () => {
    for (const h of ["", "not json", "[1]", '"https://evil.example"', "null"])
      expect(gatewayPagination(h, ROOT, GW), h).toBeNull();
  });
});
