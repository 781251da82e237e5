import { describe, expect, it } from "vitest";
import { v2Path } from "../../src/v2/path";

const accepted = (p: string) => {
  const r = v2Path(p);
  return r.ok ? r.value : null;
};
const refusal = (p: string) => {
  const r = v2Path(p);
  return r.ok ? null : r.error;
};

describe("v2-path: accepted paths", () => {
  it("answers the path below /v2, unchanged", () => {
    expect(accepted("/v2/Customers")).toBe("/Customers");
    expect(accepted("/v2/Customers/42/ContactPersons")).toBe("/Customers/42/ContactPersons");
    expect(accepted("/v2/Vouchers/Journal/file.pdf")).toBe("/Vouchers/Journal/file.pdf");
    expect(accepted("/v2/a-b_c~d!$&'()*+,;=:@")).toBe("/a-b_c~d!$&'()*+,;=:@");
  });

  it("answers / for /v2 and /v2/", () => {
    expect(accepted("/v2")).toBe("/");
    expect(accepted("/v2/")).toBe("/");
  });

  it("keeps harmless percent-escapes (a space, a non-ASCII letter)", () => {
    expect(accepted("/v2/Customers/Ola%20Nordmann")).toBe("/Customers/Ola%20Nordmann");
    expect(accepted("/v2/%C3%A6")).toBe("/%C3%A6");
  });

  it("decodes escapes of unreserved characters (RFC 3986 §6.2.2.2): the path checked is the path the API acts on", () => {
    expect(accepted("/v2/%43ustomers")).toBe("/Customers");
    expect(accepted("/v2/%63ustomers/%34%32")).toBe("/customers/42");
    expect(accepted("/v2/a%2Db%5Fc%7Ed")).toBe("/a-b_c~d");
    expect(accepted("/v2/%43ustomers%20x")).toBe("/Customers%20x");
  });

  it("matches the /v2 prefix in any case, passing only the rest on", () => {
    expect(accepted("/V2/Customers")).toBe("/Customers");
  });
});

describe("v2-path: refused paths", () => {
  it("refuses encoded control characters (the URL parser leaves them encoded, the API would decode them)", () => {
    for (const p of ["/v2/a%0Ab", "/v2/a%0db", "/v2/a%7Fb", "/v2/a%1fb", "/v2/a%00b"])
      expect(refusal(p)).toMatch(/control characters/);
  });

  it("refuses paths outside /v2, including look-alike prefixes", () => {
    for (const p of [
      "/",
      "/v1/Customers",
      "/v2x/Customers",
      "/v20/Customers",
      "/api/v2/Customers",
      "v2/Customers",
      "",
    ]) {
      expect(refusal(p), p).toMatch(/must start with \/v2/);
    }
  });

  it("refuses encoded slashes, backslashes, dots and NULs, in either case", () => {
    for (const p of [
      "/v2/a%2fb",
      "/v2/a%2Fb",
      "/v2/a%5cb",
      "/v2/a%5Cb",
      "/v2/%2e%2e/admin",
      "/v2/%2E",
      "/v2/a%00",
      "/v2/Customers%2F..%2Fadmin",
    ]) {
      expect(refusal(p), p).toMatch(/Encoded slashes/);
    }
  });

  it("refuses double encoding (an encoded %) and a % that starts no escape, so decoding can never make one", () => {
    for (const p of [
      "/v2/a%252Fb",
      "/v2/a%252fb",
      "/v2/Customers/1%252f..%252fadmin",
      "/v2/%25",
      "/v2/%2%46",
      "/v2/a%",
      "/v2/a%4",
      "/v2/a%zz",
    ]) {
      expect(refusal(p), p).not.toBeNull();
    }
    expect(refusal("/v2/a%252Fb")).toMatch(/percent signs/);
    expect(refusal("/v2/%2%46")).toMatch(/two hex digits/);
  });

  it("refuses raw backslashes", () => {
    expect(refusal("/v2/a\\b")).toMatch(/Backslashes/);
    expect(refusal("/v2/..\\admin")).toMatch(/Backslashes/);
  });

  it("refuses empty and dot segments", () => {
    for (const p of [
      "/v2//Customers",
      "/v2/Customers/",
      "/v2/Customers//42",
      "/v2/./Customers",
      "/v2/Customers/..",
      "/v2/../admin",
      "/v2/.",
    ]) {
      expect(refusal(p), p).toMatch(/empty, dot or malformed segment/);
    }
  });

  it("refuses control characters and characters outside a path segment", () => {
    for (const p of [
      "/v2/a\tb",
      "/v2/a\u0000b",
      "/v2/a\u007fb",
      "/v2/a b",
      '/v2/a"b',
      "/v2/a<b>",
      "/v2/a?b",
      "/v2/a#b",
      "/v2/æ",
    ]) {
      expect(refusal(p), JSON.stringify(p)).not.toBeNull();
    }
    // A line break cannot even reach the prefix check's end anchor.
    expect(refusal("/v2/a\nb")).not.toBeNull();
    expect(refusal("/v2/a\r\nb")).not.toBeNull();
  });
});
