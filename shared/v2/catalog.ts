/**
 * @module
 * The catalog of API v2: every method and path of the published document and the newer ones the
 * seed names, the privileges that may call it (any one of them suffices), and the body it takes
 * (the table is `catalog-entries.ts`). The gateway validates bodies against it before anything is
 * sent; the sandbox routes, authorizes and validates by it. One list, so the two cannot drift
 * apart.
 *
 * An operation whose shapes are unpublished has no schema: its JSON body is passed through (and
 * stored by the sandbox) unchecked, because any property name the project chose would be a guess.
 */
import type { z } from "zod";
import { ENTRIES, NEWER_ENTRIES, type Entry, type Method } from "./catalog-entries";
import { JsonPatch } from "./json-patch";

/** How an operation's body is sent (`multipart-or-json`: one uploaded file, or JSON). */
export type BodyKind = "none" | "json" | "json-patch" | "multipart" | "multipart-or-json";

/** One operation of the API. */
export interface Operation {
  method: Method;
  /** The path as the API documents it, e.g. `/Customers/{id}`. */
  path: string;
  /** `METHOD path`, the operation's name in the sandbox and in logs. */
  key: string;
  /** Privileges of which the integration needs one; empty means any valid token. */
  privileges: readonly string[];
  body: BodyKind;
  /**
   * Schema of a JSON body (JSON Patch for every PATCH); null when there is none or its shape is
   * unpublished (passed unchecked).
   */
  schema: z.ZodType | null;
  /** `unpublished`: no reachable source publishes the operation's request and response shapes. */
  shape: "published" | "unpublished";
}

function operationOf([key, privileges, body, unpublished]: Entry): Operation {
  const space = key.indexOf(" ");
  const method = key.slice(0, space) as Method;
  const base = {
    method,
    path: key.slice(space + 1),
    key,
    privileges,
    shape: unpublished ?? "published",
  } as const;
  if (method === "PATCH") return { ...base, body: "json-patch", schema: JsonPatch };
  if (body === undefined) return { ...base, body: "none", schema: null };
  if (typeof body === "string") return { ...base, body, schema: null };
  return { ...base, body: "json", schema: body };
}

/** Every operation: the published document's, then the newer ones with unpublished shapes. */
export const CATALOG: readonly Operation[] = [...ENTRIES, ...NEWER_ENTRIES].map(operationOf);

/** Every privilege the catalog names. */
export const CATALOG_PRIVILEGES: ReadonlySet<string> = new Set(
  CATALOG.flatMap((o) => o.privileges),
);

interface Compiled {
  op: Operation;
  pattern: RegExp;
  /**
   * Literal segments rank before parameters, so `/SalesOrders/sentState` beats `/SalesOrders/{id}`.
   */
  rank: string;
  /** The path in lower case: operations on one path share it. */
  template: string;
  /** The first segment in lower case, or null when it is a parameter. */
  first: string | null;
}

const COMPILED: Compiled[] = CATALOG.map((op) => {
  const segments = op.path.split("/").slice(1);
  const source = segments
    .map((s) =>
      s.startsWith("{") ? "[^/]+" : s.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  const head = segments[0] ?? "";
  return {
    op,
    pattern: new RegExp(`^/${source}/?$`),
    rank: segments.map((s) => (s.startsWith("{") ? "1" : "0")).join(""),
    template: op.path.toLowerCase(),
    first: head.startsWith("{") ? null : head.toLowerCase(),
  };
}).sort((a, b) => a.rank.localeCompare(b.rank));

/**
 * The operations a path can match, by its first segment in lower case, each list in `COMPILED`'s
 * order: a template whose first segment is a literal matches only paths that begin with it, one
 * that begins with a parameter any path (so it is in every list, and in `ANY_FIRST`). Why: every
 * `/v2` call is matched (twice: admitted, then its body checked), and trying all of the catalog's
 * patterns in turn, then scanning it again for the path's other methods, was 3 % of the gateway's
 * CPU in a profile of warm calls (issue 26). The answer is the same: the first match in the same
 * order.
 */
const ANY_FIRST = COMPILED.filter((c) => c.first === null);
const BY_FIRST = new Map<string, Compiled[]>();
for (const c of COMPILED)
  if (c.first !== null && !BY_FIRST.has(c.first))
    BY_FIRST.set(
      c.first,
      COMPILED.filter((d) => d.first === null || d.first === c.first),
    );
/** The operations of each path, by its lower-case template, in `COMPILED`'s order. */
const BY_TEMPLATE = new Map<string, Compiled[]>();
for (const c of COMPILED) {
  const same = BY_TEMPLATE.get(c.template);
  if (same) same.push(c);
  else BY_TEMPLATE.set(c.template, [c]);
}

/** What a request path and method resolve to. */
export type Match =
  | { kind: "operation"; op: Operation; params: Record<string, string> }
  | { kind: "method-not-allowed"; allow: Method[] }
  | { kind: "not-found" };

/**
 * Resolves `path` (relative to the v2 root, any casing) and `method` to an operation. The API
 * matches paths case-insensitively; parameters keep the caller's spelling. When several templates
 * match, the one with literals earliest wins (`/Employees/Employments` is not an employee id).
 */
export function matchOperation(method: string, path: string): Match {
  const lower = path.toLowerCase();
  const first = lower.split("/", 2)[1] ?? "";
  const best = (BY_FIRST.get(first) ?? ANY_FIRST).find((c) => c.pattern.test(lower));
  if (!best) return { kind: "not-found" };
  const same = BY_TEMPLATE.get(best.template) ?? [best];
  const upper = method.toUpperCase();
  const hit = same.find((c) => c.op.method === upper);
  if (!hit) return { kind: "method-not-allowed", allow: same.map((c) => c.op.method) };
  const values = hit.pattern.exec(lower) ? path.replace(/\/$/, "").split("/") : [];
  const params: Record<string, string> = {};
  hit.op.path.split("/").forEach((segment, i) => {
    if (segment.startsWith("{")) params[segment.slice(1, -1)] = safeDecode(values[i] ?? "");
  });
  return { kind: "operation", op: hit.op, params };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
