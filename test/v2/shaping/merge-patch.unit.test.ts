import { describe, expect, it } from "vitest";
import { JsonPatch } from "../../../shared/v2/json-patch";
import { parseMergePatch, pointerToken, toJsonPatch } from "../../../src/v2/shaping/merge-patch";

describe("merge patch to JSON Patch", () => {
  it("turns members into operations in order: null removes, objects recurse, the rest is add", () => {
    const ops = toJsonPatch({
      Name: "Fjord AS",
      Description: null,
      MailAddress: { City: "Oslo", AddressLine2: null },
      ContactGroupIds: [1, 2],
      IsArchived: false,
      Allowance: 0,
    });
    expect(ops).toEqual({
      ok: true,
      value: [
        { op: "add", path: "/Name", value: "Fjord AS" },
        { op: "remove", path: "/Description" },
        { op: "add", path: "/MailAddress/City", value: "Oslo" },
        { op: "remove", path: "/MailAddress/AddressLine2" },
        { op: "add", path: "/ContactGroupIds", value: [1, 2] },
        { op: "add", path: "/IsArchived", value: false },
        { op: "add", path: "/Allowance", value: 0 },
      ],
    });
    expect(JsonPatch.safeParse(ops.ok && ops.value).success).toBe(true);
  });

  it("escapes ~ and / in keys as JSON Pointer tokens", () => {
    expect(pointerToken("a/b~c")).toBe("a~1b~0c");
    expect(toJsonPatch({ "a/b": { "~": 1 } })).toEqual({
      ok: true,
      value: [{ op: "add", path: "/a~1b/~0", value: 1 }],
    });
  });

  it("refuses a patch that changes nothing", () => {
    expect(toJsonPatch({}).ok).toBe(false);
    expect(toJsonPatch({ MailAddress: {} }).ok).toBe(false);
  });

  it("takes only a JSON object", () => {
    expect(parseMergePatch('{"Name":"x"}')).toEqual({ ok: true, value: { Name: "x" } });
    for (const text of ["[]", '"x"', "3", "null", "true", "{ Name: ", ""]) {
      const p = parseMergePatch(text);
      expect(p.ok, text).toBe(false);
    }
    expect(parseMergePatch("{ x").ok || parseMergePatch("{ x")).toMatchObject({
      error: expect.stringContaining("not valid JSON"),
    });
    expect(parseMergePatch("[1]")).toMatchObject({
      ok: false,
      error: expect.stringContaining("JSON object"),
    });
  });
});
