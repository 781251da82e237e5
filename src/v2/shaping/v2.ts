/**
 * @module
 * What the gateway does to a `/v2` call beyond passing it through (docs/shaping.md): each feature
 * is asked for with a header; a request that asks for none is the plain pass-through, except a
 * read of reference data, cached unless the caller says `Cache-Control: no-cache`.
 */
import { checkedBody, sendV2, type V2Request } from "../passthrough";
import type { CallTrace } from "../../upstream/client";
import { allPages, wantsAllPages } from "./all-pages";
import { idempotent, type SendMark } from "./idempotency";
import { cachedReference, isCachedReference } from "./reference-cache";
import { forgetWritten } from "./written";
import { shapedWrite } from "./write-body";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function shapedV2(r: V2Request, trace: CallTrace): Promise<Response> {
  if (WRITES.has(r.method))
    return r.headers.has("idempotency-key")
      ? idempotent(r, trace, (req, mark) => written(req, trace, mark))
      : written(r, trace, { attempts: null });
  if (r.method === "GET" && wantsAllPages(r.headers)) return allPages(r, trace);
  if (isCachedReference(r)) return cachedReference(r, trace);
  return sendV2(r, checkedBody(r), trace);
}

/** A write: its body shaped (merge patch to JSON Patch, codes to ids), checked and sent. */
async function written(r: V2Request, trace: CallTrace, mark: SendMark): Promise<Response> {
  // Forgotten before (a read racing the write is not kept) and after, even when it threw.
  await forgetWritten(r, "before");
  try {
    return await shapedWrite(r, trace, mark);
  } finally {
    await forgetWritten(r, "after");
  }
}
