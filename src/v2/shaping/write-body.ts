/**
 * @module
 * A write's body shaped (merge patch to JSON Patch, codes to ids), cheapest refusal first; one
 * that asks for neither is sent byte for byte. See docs/design/v2-passthrough.md.
 */
import { checkedBody, isJsonType, mediaType, sendV2, type V2Request } from "../passthrough";
import { Problem } from "../../kernel/problem";
import type { CallTrace } from "../../upstream/client";
import type { SendMark } from "./idempotency";
import { codeDeps, forgetCodes } from "./code-cache";
import { distinctCodes, MAX_CODES_PER_BODY, placeholderIds, resolveSites } from "./code-refs";
import { codeSchema, findSites, type CodeMode, type Sites } from "./code-sites";
import { isJsonObject, parseMergePatch, toJsonPatch, type JsonObject } from "./merge-patch";

export const MERGE_PATCH_TYPE = "application/merge-patch+json";

/** A write refused with these forgets the cached ids it used: the record may be gone. */
const REFUSED_WITH_STALE_IDS = new Set([400, 404]);

/** Answers write `r` (or passes back a lookup's refusal); `mark` is set just before it is sent. */
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
  const shaped = found.sites.length > 0 ? shapedRequest(r, body, merge) : checked;
  const res = await send(shaped, shaped === checked ? checked.body : checkedBody(shaped));
  if (resolved.cached.length > 0 && REFUSED_WITH_STALE_IDS.has(res.status))
    await forgetCodes(r, resolved.cached);
  return res;
}

/**
 * Throws what `shapedWrite` would throw for `r` before any call, so an MCP `prepare_write` is
 * refused exactly as the same `/v2` write would be.
 *
 * @example checkWrite(r) // throws Problem validation-failed for a customer without a Name
 */
export function checkWrite(r: V2Request): void {
  if (planWrite(r).kind === "as-sent") checkedBody(r);
}

type WritePlan =
  | { kind: "as-sent" }
  | { kind: "shaped"; body: JsonObject; merge: boolean; found: Sites; checked: V2Request };

function planWrite(r: V2Request): WritePlan {
  const merge = r.method === "PATCH" && mediaType(r.headers) === MERGE_PATCH_TYPE;
  if (!merge && r.method !== "POST") return { kind: "as-sent" };
  const body = merge ? mergeDocument(r.body) : postDocument(r);
  if (body === null) return { kind: "as-sent" };
  const found = codeSites(r.path, body, merge ? "merge" : "post");
  if (!merge && !found.changed) return { kind: "as-sent" };
  // Checked as it will be sent, before any lookup: a body the check refuses costs no permit.
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

/** `r` with `body` as the JSON it sends (a merge patch as JSON Patch). */
function shapedRequest(r: V2Request, body: JsonObject, merge: boolean): V2Request {
  const patch = merge ? toJsonPatch(body) : null;
  if (patch && !patch.ok) throw new Problem("bad-request", patch.error);
  const headers = new Headers(r.headers);
  // The body changed: the runtime sets the right length.
  headers.delete("content-length");
  if (patch) headers.set("content-type", "application/json-patch+json");
  return { ...r, headers, body: jsonBuffer(patch ? patch.value : body) };
}

function mergeDocument(body: V2Request["body"]): JsonObject {
  if (body === null)
    throw new Problem(
      "bad-request",
      "A merge patch needs a body: a JSON object naming the fields to change.",
    );
  // Every catalog PATCH is buffered (it has a schema); only an unknown path streams.
  if (!(body instanceof ArrayBuffer))
    throw new Problem(
      "payload-too-large",
      "A merge patch is read whole: send it with a Content-Length of at most 1 MB.",
    );
  const doc = parseMergePatch(new TextDecoder().decode(body));
  if (!doc.ok) throw new Problem("bad-request", doc.error);
  return doc.value;
}

function postDocument(r: V2Request): JsonObject | null {
  if (!(r.body instanceof ArrayBuffer) || !isJsonType(mediaType(r.headers))) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(r.body));
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** Where codes stand for ids in `body` (edited in place); a `Problem` for malformed codes. */
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

/** `value` as JSON bytes in a buffer of its own (resendable after a 401). */
function jsonBuffer(value: unknown): ArrayBuffer {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const out = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(out).set(bytes);
  return out;
}
