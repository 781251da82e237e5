/**
 * @module
 * Finding out what became of a create whose answer was lost (`idempotency.ts`): one `GET` of its
 * collection filtered by the body's `ExternalImportReference`, which the API keeps unique per
 * client. Spends one permit, like any call.
 */
import { readCapped } from "../../../shared/bytes";
import { sendV2, type V2Request } from "../passthrough";
import type { CallTrace } from "../upstream/client";
import type { Recoverable } from "./idempotency-rules";
import type { StoredAnswer } from "./stored-answer";

/** What the lookup showed: the record (as the create's answer), none, or nothing it can go by. */
export type Recovery = { kind: "found"; answer: StoredAnswer } | { kind: "absent" } | { kind: "unclear"; detail: string };

/** The largest list answer read: a filter on a unique reference finds one record, never pages of them. */
const MAX_LOOKUP_BYTES = 256 * 1024;

/**
 * Looks the create of `r` up by its reference. Only a record whose reference is the one sent counts
 * (case-insensitively, as the API compares them), so a filter the API ignored cannot pass off
 * another record as this one. Throws a `Problem` when no answer comes.
 */
export async function recover(r: V2Request, trace: CallTrace, how: Recoverable): Promise<Recovery> {
  const search = `?${new URLSearchParams({ [how.filter]: how.reference }).toString()}`;
  const res = await sendV2({ ...r, method: "GET", path: how.list, search, headers: new Headers({ accept: "application/json" }), body: null }, null, trace);
  if (res.status === 204) return { kind: "absent" };
  const text = res.status === 200 ? await readText(res) : (await res.body?.cancel(), null);
  if (text === null) return { kind: "unclear", detail: `Looking it up by its ExternalImportReference answered ${res.status}.` };
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch {
    return { kind: "unclear", detail: "Looking it up by its ExternalImportReference gave an answer that is not JSON." };
  }
  if (!Array.isArray(rows)) return { kind: "unclear", detail: "Looking it up by its ExternalImportReference gave no list." };
  const wanted = how.reference.toLowerCase();
  const found = rows.filter((x): x is Record<string, unknown> => typeof x === "object" && x !== null && String((x as Record<string, unknown>).ExternalImportReference ?? "").toLowerCase() === wanted);
  if (found.length === 0) return { kind: "absent" };
  if (found.length > 1) return { kind: "unclear", detail: "Looking it up by its ExternalImportReference found more than one record." };
  const body = await new Response(JSON.stringify(found[0])).arrayBuffer();
  return { kind: "found", answer: { status: how.status, headers: { "content-type": "application/json; charset=utf-8" }, body } };
}

async function readText(res: Response): Promise<string | null> {
  if (!res.body) return "";
  const bytes = await readCapped(res.body, MAX_LOOKUP_BYTES);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}
