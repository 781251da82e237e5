import { describe, expect, it } from "vitest";
import { parsePrefer } from "../../../src/v2/shaping/prefer";

describe("parsePrefer (RFC 7240)", () => {
  it("reads comma-separated preferences, names in any casing, values as tokens or quoted strings", () => {
    const p = parsePrefer('respond-async, Pages="all" ; x=1, max-rows=5, return=minimal');
    expect([...p.keys()]).toEqual(["respond-async", "pages", "max-rows", "return"]);
    expect(p.get("respond-async")?.value).toBeNull();
    expect(p.get("pages")?.value).toBe("all");
    expect(p.get("pages")?.params.get("x")).toBe("1");
    expect(p.get("max-rows")?.value).toBe("5");
  });

  it("keeps the first of a preference named twice, as headers joined by Headers.get give them", () => {
    const h = new Headers();
    h.append("prefer", "pages=all");
    h.append("prefer", "PAGES=none");
    expect(parsePrefer(h.get("prefer")).get("pages")?.value).toBe("all");
  });

  it("does not split inside quoted strings and undoes backslash escapes", () => {
    const p = parsePrefer('note="a, b; \\"c\\"", pages = all');
    expect(p.get("note")?.value).toBe('a, b; "c"');
    expect(p.get("pages")?.value).toBe("all");
  });

  it("skips malformed parts and answers nothing for no header", () => {
    expect(parsePrefer(null).size).toBe(0);
    expect(parsePrefer("").size).toBe(0);
    const p = parsePrefer('bad name=1, ok=yes, =x, pages="unterminated, later=1');
    expect(p.has("bad name")).toBe(false);
    expect(p.get("ok")?.value).toBe("yes");
    expect(p.has("pages")).toBe(false);
    expect(p.has("later")).toBe(false);
  });
});
