/**
 * @module
 * A merge patch (RFC 7396) as the JSON Patch API v2 takes: `add`, never `replace`, which fails on
 * a field that has no value yet (docs/shaping.md). Pure.
 */
import type { PatchOperation } from "../../../shared/v2/json-patch";
import type { Result } from "../../kernel/result";

export type JsonObject = Record<string, unknown>;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The merge patch in `text`: a JSON object (any other value would replace the whole record).
 *
 * @example parseMergePatch('{"Name":"Fjord AS"}') // { ok: true, value: { Name: "Fjord AS" } }
 */
export function parseMergePatch(text: string): Result<JsonObject, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: "The merge patch is not valid JSON; nothing was sent to the API." };
  }
  return isJsonObject(value)
    ? { ok: true, value }
    : {
        ok: false,
        error:
          "A merge patch must be a JSON object naming the fields to change; nothing was sent to the API.",
      };
}

/**
 * The JSON Patch of `doc`; an error when it changes nothing (the API takes no empty patch).
 *
 * @example toJsonPatch({ Description: null }) // ok: [{ op: "remove", path: "/Description" }]
 */
export function toJsonPatch(doc: JsonObject): Result<PatchOperation[], string> {
  const ops: PatchOperation[] = [];
  collect(doc, "", ops);
  return ops.length > 0
    ? { ok: true, value: ops }
    : {
        ok: false,
        error: "The merge patch changes nothing (an empty object); nothing was sent to the API.",
      };
}

/** A JSON Pointer token for `key` (RFC 6901). */
export function pointerToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function collect(doc: JsonObject, prefix: string, ops: PatchOperation[]): void {
  for (const [key, value] of Object.entries(doc)) {
    const path = `${prefix}/${pointerToken(key)}`;
    if (value === null) ops.push({ op: "remove", path });
    else if (isJsonObject(value)) collect(value, path, ops);
    else ops.push({ op: "add", path, value });
  }
}
