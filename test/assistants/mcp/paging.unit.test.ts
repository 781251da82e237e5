/**
 * The read tool's paging (`src/assistants/mcp/paging.ts`): a cursor continues only the read it came
 * from, rows are cut where the answer would pass its size, and the API's totals are read when it
 * gives them.
 */
import { describe, expect, it } from "vitest";
import {
  cursorOf,
  fitting,
  listPage,
  positionOf,
  READ_MAX_CHARS,
} from "../../../src/assistants/mcp/paging";

describe("paging: cursors", () => {
  it("round-trips a position, for its own read only", () => {
    const at = { read: "/Customers?customerNos=1-9", page: 3, offset: 17 };
    const cursor = cursorOf(at);
    expect(positionOf(cursor, "/Customers?customerNos=1-9")).toEqual(at);
    expect(positionOf(cursor, "/Customers")).toBeNull();
    expect(positionOf("not a cursor", "/Customers")).toBeNull();
    expect(positionOf(cursorOf({ ...at, page: 0 }), at.read)).toBeNull();
  });
});

describe("paging: trimming", () => {
  it("keeps whole rows, in order, while their JSON fits", () => {
    const row = { Name: "x".repeat(990) };
    const rows = Array.from({ length: 100 }, (_, i) => ({ ...row, Id: i }));
    const kept = fitting(rows, 0);
    expect(kept.length).toBeGreaterThan(30);
    expect(kept.length).toBeLessThan(rows.length);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(READ_MAX_CHARS);
    expect(kept).toEqual(rows.slice(0, kept.length));
    expect(fitting(rows, kept.length)[0]).toEqual(rows[kept.length]);
  });

  it("keeps no row that alone is over the size", () => {
    expect(fitting([{ x: "y".repeat(READ_MAX_CHARS) }], 0)).toEqual([]);
  });

  it("reads the totals of X-Pagination, or says it does not know", () => {
    expect(listPage('{"totalCount":250,"pageSize":100,"currentPage":1,"totalPages":3}')).toEqual({
      totalCount: 250,
      totalPages: 3,
    });
    expect(listPage(null)).toEqual({ totalCount: null, totalPages: null });
    expect(listPage("[1]")).toEqual({ totalCount: null, totalPages: null });
  });
});
