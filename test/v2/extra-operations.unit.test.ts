import { describe, expect, it } from "vitest";
import { extraMethodsAt, parseExtraOperations } from "../../src/v2/extra-operations";

describe("v2-extra-operations: V2_EXTRA_OPERATIONS", () => {
  it("reads METHOD /Path entries separated by commas or new lines, any casing of the method", () => {
    const extra = parseExtraOperations("GET /NewThing,\n post /NewThing/{id}/Action ,");
    expect(extra.operations.map((o) => `${o.method} ${o.path}`)).toEqual([
      "GET /NewThing",
      "POST /NewThing/{id}/Action",
    ]);
    expect(extra.ignored).toEqual([]);
  });

  it("matches paths as the catalog does: any casing, a parameter for one segment", () => {
    const extra = parseExtraOperations("GET /NewThing, POST /NewThing/{id}/Action");
    expect(extraMethodsAt(extra, "/newthing")).toEqual(["GET"]);
    expect(extraMethodsAt(extra, "/NewThing/42/Action")).toEqual(["POST"]);
    expect(extraMethodsAt(extra, "/NewThing/42/43/Action")).toEqual([]);
    expect(extraMethodsAt(extra, "/NewThings")).toEqual([]);
  });

  it("ignores entries it cannot read, and keeps them for the log; unset is empty", () => {
    const extra = parseExtraOperations("GET /Ok, FETCH /Bad, GET NoSlash, GET /a/../b, GET /x{y}");
    expect(extra.operations.map((o) => o.path)).toEqual(["/Ok"]);
    expect(extra.ignored).toEqual(["FETCH /Bad", "GET NoSlash", "GET /a/../b", "GET /x{y}"]);
    expect(parseExtraOperations(undefined)).toEqual({ operations: [], ignored: [] });
  });
});
