import { describe, expect, it } from "vitest";
import { Problem } from "../../../src/kernel/problem";
import {
  MAX_PAGES_PER_WALK,
  MIN_PAGES_ALL_PAGE_SIZE,
  pagesOverCap,
  walkSearch,
} from "../../../src/v2/shaping/page-size";

describe("walkSearch", () => {
  it("raises a smaller PageSize, in any casing, to the floor and keeps the rest of the query", () => {
    expect(walkSearch("?pagesize=1&Fields=Id")).toEqual({
      search: `?Fields=Id&PageSize=${MIN_PAGES_ALL_PAGE_SIZE}`,
      pageSize: MIN_PAGES_ALL_PAGE_SIZE,
    });
    expect(walkSearch("?PageSize=1&PageNumber=1").pageSize).toBe(MIN_PAGES_ALL_PAGE_SIZE);
  });

  it("leaves a size at or above the floor, none, and one the API is to refuse as they came", () => {
    expect(walkSearch("?PageSize=250&PageNumber=4")).toEqual({
      search: "?PageSize=250&PageNumber=4",
      pageSize: 250,
    });
    expect(walkSearch("")).toEqual({ search: "", pageSize: null });
    expect(walkSearch("?PageSize=0")).toEqual({ search: "?PageSize=0", pageSize: null });
    expect(walkSearch("?PageSize=-1")).toEqual({ search: "?PageSize=-1", pageSize: null });
  });

  it("refuses to raise a size under a PageNumber past 1", () => {
    expect(() => walkSearch("?PageSize=10&PageNumber=2")).toThrow(Problem);
  });
});

describe("pagesOverCap", () => {
  it("refuses a walk of more pages than the cap, naming both", () => {
    expect(pagesOverCap(MAX_PAGES_PER_WALK * 250, 250)).toBeNull();
    const p = pagesOverCap(MAX_PAGES_PER_WALK * 250 + 1, 250);
    expect(p?.type).toBe("too-many-rows");
    expect(p?.detail).toContain(`${MAX_PAGES_PER_WALK + 1} pages`);
    expect(p?.detail).toContain(`at most ${MAX_PAGES_PER_WALK} pages`);
  });
});
