import { describe, expect, it } from "vitest";
import {
  freshness,
  isCachedReference,
  REFERENCE_RESOURCES,
  resourceOf,
  wantsFresh,
} from "../../../src/v2/shaping/reference-cache";

const get = (path: string, headers: Record<string, string> = {}) => ({
  method: "GET",
  path,
  headers: new Headers(headers),
});

describe("isCachedReference", () => {
  it("is true for GETs of the listed resources, in any casing, items and queries included", () => {
    for (const path of [
      "/VatCodes",
      "/vatcodes",
      "/GeneralLedgerAccounts/12",
      "/BrandingThemes",
      "/CustomDimensionSettings",
      "/OrganizationSettings",
    ]) {
      expect(isCachedReference(get(path)), path).toBe(true);
    }
  });

  it("is false for writes, other resources, lookalikes and conditional GETs", () => {
    expect(isCachedReference({ ...get("/VatCodes"), method: "POST" })).toBe(false);
    for (const path of [
      "/Customers",
      "/CurrencyRates",
      "/LockDateSettings",
      "/VatCodesX",
      "/Employees/1/PayrollSettings",
    ])
      expect(isCachedReference(get(path)), path).toBe(false);
    expect(isCachedReference(get("/VatCodes", { "if-none-match": '"x"' }))).toBe(false);
    expect(
      isCachedReference(get("/VatCodes", { "if-modified-since": "Tue, 01 Jan 2030 00:00:00 GMT" })),
    ).toBe(false);
  });

  it("lists resources by lower-case first segment", () => {
    expect([...REFERENCE_RESOURCES].every((r) => r === r.toLowerCase())).toBe(true);
    expect(resourceOf("/GeneralLedgerAccounts/12")).toBe("generalledgeraccounts");
    expect(resourceOf("/")).toBe("");
  });
});

describe("wantsFresh", () => {
  it("reads Cache-Control no-cache, no-store and max-age=0, and Pragma: no-cache without Cache-Control", () => {
    const fresh: Record<string, string>[] = [
      { "cache-control": "no-cache" },
      { "cache-control": "max-age=0" },
      { "cache-control": "private, No-Store" },
      { pragma: "no-cache" },
    ];
    const cached: Record<string, string>[] = [
      {},
      { "cache-control": "max-age=60" },
      { "cache-control": "no-transform" },
      { "cache-control": "max-age=60", pragma: "no-cache" },
    ];
    for (const h of fresh) {
      expect(wantsFresh(new Headers(h)), JSON.stringify(h)).toBe(true);
    }
    for (const h of cached) {
      expect(wantsFresh(new Headers(h)), JSON.stringify(h)).toBe(false);
    }
  });
});

describe("freshness", () => {
  it("gives Age in whole seconds since kept and max-age until expiry, never negative", () => {
    expect(freshness(1_000, 301_000, 1_000)).toEqual({
      age: "0",
      "cache-control": "private, max-age=300",
    });
    expect(freshness(1_000, 301_000, 62_500)).toEqual({
      age: "61",
      "cache-control": "private, max-age=238",
    });
    expect(freshness(1_000, 301_000, 400_000)).toEqual({
      age: "399",
      "cache-control": "private, max-age=0",
    });
  });
});
