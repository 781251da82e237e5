/**
 * @module
 * The gateway's additions to API v2 as the document describes them: their request headers, and
 * which operations take them. The behaviour lives in `v2/shaping/`.
 */
import type { Operation } from "../../../shared/v2/catalog";
import { REFERENCE_RESOURCES, resourceOf } from "../shaping/reference-cache";
import type { JsonSchema } from "../../kernel/openapi/json-schema";

/** A `GET` of a collection (its last segment is not a parameter): `Prefer: pages=all` applies. */
export function isListRead(op: Pick<Operation, "method" | "path">): boolean {
  return op.method === "GET" && !/\}$/.test(op.path);
}

/** A `GET` of reference data the gateway caches (`v2/shaping/reference-cache.ts`). */
export function isReferenceRead(op: Pick<Operation, "method" | "path">): boolean {
  return op.method === "GET" && REFERENCE_RESOURCES.has(resourceOf(op.path));
}

export const SHAPING_PARAMETERS: Record<string, JsonSchema> = {
  idempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    schema: { type: "string", maxLength: 255 },
    description:
      "Makes the write safe to repeat (IETF httpapi draft, as Stripe). The first answer (status, body, Location) is kept per tenant for 24 h; a repeat with the same key and body gets it again with `Idempotent-Replayed: true` and no upstream call; the same key with another body is 422; a repeat while the first is in flight is 409; when the first's outcome is unknown the repeat gets a problem that says so.",
  },
  preferPages: {
    name: "Prefer",
    in: "header",
    required: false,
    schema: { type: "string", enum: ["pages=all"] },
    description:
      "`pages=all` (RFC 7240): every page of the list as one JSON array, streamed as pages arrive, with `Preference-Applied: pages=all` and the total count. Pages of the caller's `PageSize`, raised to at least 250 (the answer's `X-Page-Size` says which); each page is one upstream call, at most 200 pages a walk. A list beyond the row cap, or one that cannot finish within the deadline, is a problem, never a truncated 200. An item answer is unchanged.",
  },
  deadline: {
    name: "X-Deadline-Ms",
    in: "header",
    required: false,
    schema: { type: "integer", minimum: 1, maximum: 120000, default: 30000 },
    description:
      "How long the call may take in all, ms (waiting for a rate-limit permit included). A wait that cannot fit is refused at once with 503 and Retry-After; an upstream call that runs out is 504.",
  },
  cacheControl: {
    name: "Cache-Control",
    in: "header",
    required: false,
    schema: { type: "string", enum: ["no-cache"] },
    description:
      "Reference data is served from a per-tenant cache for a few minutes (answers carry `Age` and `Cache-Control`) and invalidated by writes through the gateway; `no-cache` reads from the API.",
  },
};
