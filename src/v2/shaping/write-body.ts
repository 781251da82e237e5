/**
 * @module
 * A write's body shaped before it is checked and sent: a merge patch
 * (`application/merge-patch+json`) turned into the JSON Patch the API takes, and codes given for
 * ids resolved (`code-refs.ts`). A body that asks for neither is sent exactly as it came, byte for
 * byte.
 *
 * Order, cheapest refusal first: the merge patch is read and its codes found (a malformed code is
 * refused); the body, each code standing in as a placeholder id, is turned into what will be sent
 * and checked by `checkedBody` like any other; a body naming more than `MAX_CODES_PER_BODY`
 * distinct codes is refused; only then are the codes looked up (the only calls made before the
 * write) and the body built again with the real ids. A bad body, too many codes or an unknown code
 * is a 4xx problem with nothing written, and only the last of them costs a lookup.
 */
import { checkedBody, isJsonType, mediaType, sendV2, type V2Request } from "../passthrough";
import { Problem } from "../../kernel/problem";
import type { CallTrace } from "../../upstream/client";
import type { SendMark } from "./idempotency";
import { codeDeps, forgetCodes } from "./code-cache";
import { distinctCodes, MAX_CODES_PER_BODY, placeholderIds, resolveSites } from "./code-refs";
import { codeSchema, findSites, type CodeMode, type Sites } from "./code-sites";
import { isJsonObject, parseMergePatch, toJsonPatch, type JsonObject } from "./merge-patch";

/** The media type of RFC 7396 merge patches. */
export const MERGE_PATCH_TYPE = "application/merge-patch+json";

/**
 * Statuses of a refused write after which the ids the cache supplied for it are forgotten: the
 * record may be gone.
 */
const REFUSED_WITH_STALE_IDS = new Set([400, 404]);

/**
 * Answers write `r`: its body shaped as its headers ask, then checked and sent.
 *
 * @param r the write as the caller sent it
 * @param trace the caller's trace (lookups and the write are counted in it)
 * @param mark set just before the write itself is sent (`SendMark`): a lookup's failure or refusal
 *   leaves it null, so the idempotency record knows nothing was written
 * @returns the API's answer to the write, or a lookup's refusal passed back
 * @example await shapedWrite(r, trace, { attempts: null })
 */
export async function shapedWrite(
  r: V2Request,
  trace: CallTrace,
  mark: SendMark,
): Promise<Response> {
  const send = (req: V2Request, body: ArrayBuffer | ReadableStream | null) => {
    mark.attempts = trace.attempts;
    return sendV2(req, body, trace);
  };
  const plan = planWrite(r);
  if (plan.kind === "as-sent") return send(r, checkedBody(r));
  const { body, merge, found, checked } = plan;
  const resolved = await resolveSites(found.sites, codeDeps(r, trace));
  if (resolved.kind === "refused") return resolved.response;
  if (resolved.kind === "unknown") throw invalidCodes(resolved.errors);
  // With codes, the body is built and checked again with the real ids in the placeholders' stead.
  const shaped = found.sites.length > 0 ? shapedRequest(r, body, merge) : checked;
  const res = await send(shaped, shaped === checked ? checked.body : checkedBody(shaped));
  if (resolved.cached.length > 0 && REFUSED_WITH_STALE_IDS.has(res.status))
    await forgetCodes(r, resolved.cached);
  return res;
}

/**
 * Throws the `Problem` that `shapedWrite` would throw for `r` before making any call: a malformed
 * merge patch or code, a body the catalog refuses (each code standing in as a placeholder id), too
 * many codes. What it cannot know without a call (whether a code exists) is left to the write. An
 * MCP `prepare_write` is checked here (`assistants/mcp/holder-port.ts`), so it is refused exactly
 * as the same `/v2` write would be.
 *
 * @example checkWrite(r) // throws Problem validation-failed for a customer without a Name
 */
export function checkWrite(r: V2Request): void {
  if (planWrite(r).kind === "as-sent") checkedBody(r);
}

/** How a write's body goes: as it came (checked by `checkedBody` when sent), or shaped. */
type WritePlan =
  | { kind: "as-sent" }
  | { kind: "shaped"; body: JsonObject; merge: boolean; found: Sites; checked: V2Request };

/**
 * The write's body read and checked as far as it can be before any lookup: see the module's notes
 * for the order. Throws a `Problem` for a bad body.
 */
function planWrite(r: V2Request): WritePlan {
  const merge = r.method === "PATCH" && mediaType(r.headers) === MERGE_PATCH_TYPE;
  if (!merge && r.method !== "POST") return { kind: "as-sent" };
  const body = merge ? mergeDocument(r.body) : postDocument(r);
  if (body === null) return { kind: "as-sent" };
  const found = codeSites(r.path, body, merge ? "merge" : "post");
  if (!merge && !found.changed) return { kind: "as-sent" };
  // The body is checked as it will be sent, each code standing in as a placeholder id, before any
  // lookup: lookups cost upstream calls and permits, and a body the check refuses makes none.
  placeholderIds(found.sites);
  const checked = shapedRequest(r, body, merge);
  checkedBody(checked);
  const codes = distinctCodes(found.sites);
  if (codes > MAX_CODES_PER_BODY)
    throw new Problem(
      "unprocessable",
      `The body names ${codes} distinct codes to look up; a write may name at most ${MAX_CODES_PER_BODY}. Give Ids for some, or split the write; nothing was sent to the API.`,
    );
  return { kind: "shaped", body, merge, found, checked };
}

/**
 * `r` with `body` as the JSON it sends: as a JSON Patch when it is a merge patch (a `Problem` for
 * one that changes nothing).
 */
function shapedRequest(r: V2Request, body: JsonObject, merge: boolean): V2Request {
  const patch = merge ? toJsonPatch(body) : null;
  if (patch && !patch.ok) throw new Problem("bad-request", patch.error);
  const headers = new Headers(r.headers);
  // The body changed: the caller's length no longer holds, and the runtime sets the right one.
  headers.delete("content-length");
  if (patch) headers.set("content-type", "application/json-patch+json");
  return { ...r, headers, body: jsonBuffer(patch ? patch.value : body) };
}

/** The merge patch of a PATCH, or a `Problem` for anything that is not a JSON object. */
function mergeDocument(body: V2Request["body"]): JsonObject {
  if (body === null)
    throw new Problem(
      "bad-request",
      "A merge patch needs a body: a JSON object naming the fields to change.",
    );
  // Every PATCH of the catalog is buffered (it has a schema); only an unknown path streams.
  if (!(body instanceof ArrayBuffer))
    throw new Problem(
      "payload-too-large",
      "A merge patch is read whole: send it with a Content-Length of at most 1 MB.",
    );
  const doc = parseMergePatch(new TextDecoder().decode(body));
  if (!doc.ok) throw new Problem("bad-request", doc.error);
  return doc.value;
}

/**
 * A POST's JSON object body when codes could apply to it, else null (sent as it came, `checkedBody`
 * judges it).
 */
function postDocument(r: V2Request): JsonObject | null {
  if (!(r.body instanceof ArrayBuffer) || !isJsonType(mediaType(r.headers))) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(r.body));
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Where codes stand in for ids in `body` (edited in place as `findSites` does); a `Problem` for
 * malformed codes. None where the catalog knows no schema for the write.
 */
function codeSites(path: string, body: JsonObject, mode: CodeMode): Sites {
  const schema = codeSchema(mode === "merge" ? "PATCH" : "POST", path);
  if (!schema) return { sites: [], errors: [], changed: false };
  const found = findSites(body, schema, mode);
  if (found.errors.length > 0) throw invalidCodes(found.errors);
  return found;
}

function invalidCodes(errors: { path: string; message: string }[]): Problem {
  const list = errors.map((e) => `${e.path}: ${e.message}`).join(" ");
  return new Problem(
    "validation-failed",
    `A code in the body cannot be resolved to an id; nothing was written. ${list}`,
    { errors },
  );
}

/** `value` as JSON bytes in a buffer of their own (a buffered body can be resent after a 401). */
function jsonBuffer(value: unknown): ArrayBuffer {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const out = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(out).set(bytes);
  return out;
}
