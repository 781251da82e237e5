/**
 * @module
 * An RFC 7396 JSON Merge Patch turned into the RFC 6902 JSON Patch that API v2's PATCH takes. Pure.
 *
 * Each member becomes one operation at its PascalCase path as given: `null` is `remove`, a nested
 * object is recursed into (`{"MailAddress":{"City":"Oslo"}}` changes `/MailAddress/City` only), and
 * anything else (a scalar or an array, which a merge patch always replaces whole) is `add`.
 *
 * Why `add` and not `replace`: RFC 7396 sets a member whether or not the target has it, and RFC
 * 6902 `add` on an object member does exactly that (it replaces a present value), while `replace`
 * fails on an absent one. The API's patch document leaves out fields that have no value (the
 * sandbox's `writableView`), so a `replace` of a field never set before would be refused.
 */
import type { PatchOperation } from "../../../shared/v2/json-patch";
import type { Result } from "../../kernel/result";

/** A JSON object, as `JSON.parse` makes it. */
export type JsonObject = Record<string, unknown>;

/** Whether `v` is a JSON object (not an array, not null). */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The merge patch in `text`, or why it is not one: invalid JSON, or JSON that is not an object
 * (RFC 7396 would replace the whole record with an array or scalar, which the API cannot do).
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
 * The JSON Patch operations of merge patch `doc`, in its member order; an error when it changes
 * nothing (an empty object, or only empty nested objects), since the API takes no empty patch.
 *
 * @example
 * toJsonPatch({ Name: "Fjord AS", Description: null, MailAddress: { City: "Oslo" } }) // { ok:
 * true, value: [{ op: "add", path: "/Name", value: "Fjord AS" }, { op: "remove", path:
 * "/Description" }, //                      { op: "add", path: "/MailAddress/City", value: "Oslo"
 * }] }
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

/** A JSON Pointer reference token for `key` (RFC 6901: `~` as `~0`, `/` as `~1`). */
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
