import { describe, expect, it } from "vitest";
import { DEFAULT_PAGES_ALL_MAX_ROWS, readConfig } from "../../../src/kernel/config";
import {
  leastWalkMs,
  morePages,
  pageRows,
  readPagination,
  rowCap,
  wantsAllPages,
  withPage,
} from "../../../src/v2/shaping/all-pages";

describe("pages=all: the pure parts", () => {
  it("is asked for with Prefer: pages=all among other preferences, in any casing", () => {
    expect(wantsAllPages(new Headers({ prefer: "respond-async, PAGES=All" }))).toBe(true);
    expect(wantsAllPages(new Headers({ prefer: 'pages="all"' }))).toBe(true);
    expect(wantsAllPages(new Headers({ prefer: "pages=some" }))).toBe(false);
    expect(wantsAllPages(new Headers())).toBe(false);
  });

  it("caps rows by the binding, lowered (never raised) by max-rows", () => {
    const cap = (binding?: string) => readConfig({ PAGES_ALL_MAX_ROWS: binding }).pagesAllMaxRows;
    expect(rowCap(cap(), undefined)).toEqual({
      cap: DEFAULT_PAGES_ALL_MAX_ROWS,
      lowered: false,
    });
    expect(rowCap(cap("1000"), undefined)).toEqual({ cap: 1000, lowered: false });
    expect(rowCap(cap("nonsense"), "5")).toEqual({ cap: 5, lowered: true });
    expect(rowCap(cap("1000"), "5000")).toEqual({ cap: 1000, lowered: false });
    expect(rowCap(cap("1000"), "-1")).toEqual({ cap: 1000, lowered: false });
  });

  it("reads X-Pagination in any key casing; null when absent or not an object", () => {
    expect(
      readPagination('{"TotalCount":7,"pageSize":3,"totalPages":3,"nextPageLink":null}'),
    ).toEqual({ totalCount: 7, pageSize: 3, totalPages: 3, hasNext: false });
    expect(
      readPagination('{"nextPageLink":"https://x/v2/Departments?PageNumber=2"}'),
    ).toMatchObject({ totalCount: null, hasNext: true });
    expect(readPagination(null)).toBeNull();
    expect(readPagination("[1]")).toBeNull();
    expect(readPagination("{oops")).toBeNull();
  });

  it("keeps a page's rows as raw JSON (every digit of an int64 kept) and counts them", () => {
    expect(pageRows(' [ {"Id": 9007199254740993}, {"Id":2} ] ')).toEqual({
      inner: '{"Id": 9007199254740993}, {"Id":2}',
      count: 2,
    });
    expect(pageRows("[]")).toEqual({ inner: "", count: 0 });
    expect(pageRows('{"Id":1}')).toBeNull();
    expect(pageRows("nope")).toBeNull();
  });

  it("stops after a short page, an empty one, no next link, or the last page", () => {
    const p = { totalCount: 7, pageSize: 3, totalPages: 3, hasNext: true };
    expect(morePages(3, 3, 1, p)).toBe(true);
    expect(morePages(3, 3, 3, p)).toBe(false);
    expect(morePages(1, 3, 2, p)).toBe(false);
    expect(morePages(0, 3, 1, null)).toBe(false);
    expect(morePages(3, 3, 1, { ...p, hasNext: false })).toBe(false);
    expect(morePages(3, 3, 5, null)).toBe(true);
  });

  it("sets PageNumber, replacing the caller's in any casing and keeping the rest", () => {
    expect(withPage("?pagenumber=1&PageSize=3&codes=A", 2)).toBe(
      "?PageSize=3&codes=A&PageNumber=2",
    );
    expect(withPage("", 4)).toBe("?PageNumber=4");
  });

  it("estimates the least walk time from the rate limit", () => {
    const rate = (binding?: string) =>
      readConfig({ RATE_LIMIT_PER_SECOND: binding }).rateLimitPerSecond;
    expect(leastWalkMs(20, rate())).toBe(2000);
    expect(leastWalkMs(20, rate("200"))).toBe(100);
  });
});
