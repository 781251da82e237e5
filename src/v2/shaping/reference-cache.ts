/**
 * @module
 * Cached reference data: a `GET` of a slow-changing resource is answered from the tenant's cache
 * (`v2/tenant/reference-cache.ts`) for 5 minutes, with no upstream call; a write through the
 * gateway to the resource forgets it. A conditional `GET` passes through untouched.
 */
import { unwrap } from "../../kernel/outcome";
import { sendV2, type V2Request } from "../passthrough";
import { asHolder } from "../../kernel/stubs";
import type { CallTrace } from "../../upstream/client";
import { answerResponse, capture } from "./stored-answer";

/**
 * The resources whose reads are cached, by first path segment in lower case. Left out on purpose:
 * `CurrencyRates`, `LockDateSettings` and master data (docs/shaping.md says why).
 */
export const REFERENCE_RESOURCES: ReadonlySet<string> = new Set(
  [
    "VatCodes",
    "Currencies",
    "GeneralLedgerAccounts",
    "PaymentTerms",
    "DeliveryTerms",
    "BrandingThemes",
    "SubLedgerNumberSeries",
    "FinancialSettings",
    "VatSettings",
    "OrganizationSettings",
    "CustomDimensionSettings",
  ].map((r) => r.toLowerCase()),
);

/** The largest answer kept, bytes: a large chart of accounts, below SQLite's 2 MB row limit. */
export const MAX_REFERENCE_ENTRY_BYTES = 1024 * 1024;
export const KEPT_HEADERS = ["content-type", "x-pagination", "etag", "last-modified"];
export const X_CACHE = "x-cache";

/** The resource `path` belongs to: its first segment, lower case. */
export function resourceOf(path: string): string {
  return (path.split("/")[1] ?? "").toLowerCase();
}

export function isCachedReference(r: Pick<V2Request, "method" | "path" | "headers">): boolean {
  return (
    r.method === "GET" &&
    REFERENCE_RESOURCES.has(resourceOf(r.path)) &&
    !r.headers.has("if-none-match") &&
    !r.headers.has("if-modified-since")
  );
}

/** Whether the caller asked to bypass caches (`Cache-Control` or `Pragma`). */
export function wantsFresh(headers: Headers): boolean {
  const cc = (headers.get("cache-control") ?? "").toLowerCase();
  return (
    /(^|,)\s*(no-cache|no-store|max-age=0)\s*(,|$)/.test(cc) ||
    (!headers.has("cache-control") && /no-cache/i.test(headers.get("pragma") ?? ""))
  );
}

/** Answers a reference read from the tenant's cache, or reads it upstream and keeps a `200`. */
export async function cachedReference(r: V2Request, trace: CallTrace): Promise<Response> {
  const key = r.path + r.search;
  const resource = resourceOf(r.path);
  const read = unwrap(
    await asHolder(r.env, r.caller, (face) =>
      face.referenceRead({ key, resource, refresh: wantsFresh(r.headers) }),
    ),
  );
  if (read.kind === "hit") {
    return answerResponse(read.answer, {
      "x-request-id": r.requestId,
      ...freshness(read.storedAt, read.expiresAt, Date.now()),
      [X_CACHE]: "hit",
    });
  }
  const res = await sendV2(r, null, trace);
  if (res.status !== 200) return marked(res, "miss");
  const kept = await capture(res, KEPT_HEADERS, MAX_REFERENCE_ENTRY_BYTES);
  if (!kept.complete) return marked(kept.response, "miss");
  const entry = unwrap(
    await asHolder(r.env, r.caller, (face) =>
      face.referenceKeep({ key, resource, generation: read.generation, answer: kept.answer }),
    ),
  );
  const out = marked(kept.response, "miss");
  // Not kept (a write came in between): fresh, but no cache stands behind it.
  if (entry)
    for (const [name, value] of Object.entries(
      freshness(entry.storedAt, entry.expiresAt, entry.storedAt),
    ))
      out.headers.set(name, value);
  return out;
}

/** `Age` and `Cache-Control` of an entry kept from `storedAt` to `expiresAt`, seen at `now`. */
export function freshness(
  storedAt: number,
  expiresAt: number,
  now: number,
): { age: string; "cache-control": string } {
  return {
    age: String(Math.max(0, Math.floor((now - storedAt) / 1000))),
    "cache-control": `private, max-age=${Math.max(0, Math.floor((expiresAt - now) / 1000))}`,
  };
}

function marked(res: Response, how: "hit" | "miss"): Response {
  const out = new Response(res.body, res);
  out.headers.set(X_CACHE, how);
  return out;
}
