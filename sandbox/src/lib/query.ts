/**
 * @module
 * The API's list conventions: `PageNumber`/`PageSize`/`Fields`/`OrderBy` (ResourceParameters),
 * camelCase filters read case-insensitively, comma-separated lists, number ranges such as
 * `10000-11000, 12000, 13000-`, and the `X-Pagination` header.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../../shared/v2/query";
import { problems, type Result } from "./problem";

/** Parsed ResourceParameters. */
export interface Paging {
  pageNumber: number;
  pageSize: number;
  fields: string[] | null;
  orderBy: { field: string; desc: boolean }[];
}

/** Reads ResourceParameters; OData's `$top`/`$skip`/`$filter` belong to v1 and are refused. */
export function pagingOf(q: Map<string, string>): Result<Paging> {
  if (["$top", "$skip", "$filter", "$orderby"].some((k) => q.has(k))) {
    return {
      ok: false,
      problem: problems.resourceParameter(
        "OData parameters ($top, $skip, $filter, $orderby) are not supported in v2. Use PageNumber and PageSize.",
      ),
    };
  }
  const pageNumber = intParam(q.get("pagenumber"), 1);
  const pageSize = intParam(q.get("pagesize"), DEFAULT_PAGE_SIZE);
  if (pageNumber === null || pageNumber < 1)
    return {
      ok: false,
      problem: problems.resourceParameter("PageNumber must be a whole number of 1 or more."),
    };
  if (pageSize === null || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    return {
      ok: false,
      problem: problems.resourceParameter(
        `PageSize must be a whole number from 1 to MaxPageSize (${MAX_PAGE_SIZE}).`,
      ),
    };
  }
  const fieldsRaw = q.get("fields")?.trim();
  const fields = fieldsRaw ? fieldsRaw.split(",").map((f) => f.trim()) : null;
  if (fields?.some((f) => !/^[A-Za-z][A-Za-z0-9]*$/.test(f))) {
    return {
      ok: false,
      problem: problems.resourceParameter(
        "Fields property in resourceParameter is not formatted correct.",
      ),
    };
  }
  const orderBy: Paging["orderBy"] = [];
  for (const part of (q.get("orderby") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z][A-Za-z0-9]*)(?:\s+(asc|desc))?$/i.exec(part);
    if (!m?.[1])
      return {
        ok: false,
        problem: problems.resourceParameter(
          "OrderBy property in resourceParameter is not formatted correct.",
        ),
      };
    orderBy.push({ field: m[1], desc: m[2]?.toLowerCase() === "desc" });
  }
  return { ok: true, value: { pageNumber, pageSize, fields, orderBy } };
}

function intParam(raw: string | undefined, fallback: number): number | null {
  if (raw === undefined || raw.trim() === "") return fallback;
  return /^\d{1,9}$/.test(raw.trim()) ? Number(raw) : null;
}

/** `10000-11000, 12000, 13000-` as inclusive ranges; null when malformed. */
export function numberRanges(raw: string): [number, number][] | null {
  const out: [number, number][] = [];
  for (const part of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:\s*(-)\s*(\d+)?)?$/.exec(part);
    if (!m?.[1]) return null;
    const lo = Number(m[1]);
    const hi = m[2] ? (m[3] ? Number(m[3]) : Number.MAX_SAFE_INTEGER) : lo;
    if (hi < lo) return null;
    out.push([lo, hi]);
  }
  return out;
}

/** Comma-separated positive ids; ranges and negative numbers are refused, as the API does. */
export function idList(raw: string, name: string): Result<number[]> {
  const parts = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.some((p) => !/^\d+$/.test(p))) {
    return {
      ok: false,
      problem: problems.cast(
        `${name} contains negative numbers and/or range of numbers. Only a comma separated list of positive numbers is allowed.`,
      ),
    };
  }
  return { ok: true, value: parts.map(Number) };
}

/** Comma-separated strings, trimmed and lowercased for comparison. */
export function stringList(raw: string): string[] {
  return raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** A date-time filter value; null when it does not parse. */
export function timestampParam(raw: string): number | null {
  const t = Date.parse(raw.trim().replace(" ", "T"));
  return Number.isNaN(t) ? null : t;
}

/** Sorts, pages and projects rows of a list; `known` are the DTO's property names. */
export function pageOf<T extends Record<string, unknown>>(
  rows: T[],
  paging: Paging,
  known: readonly string[],
): Result<{ items: Record<string, unknown>[]; total: number }> {
  const canonical = new Map(known.map((k) => [k.toLowerCase(), k]));
  const resolve = (f: string) => canonical.get(f.toLowerCase());
  const unknown = [...(paging.fields ?? []), ...paging.orderBy.map((o) => o.field)].find(
    (f) => !resolve(f),
  );
  if (unknown)
    return {
      ok: false,
      problem: problems.resourceParameter(
        `'${unknown}' is not a property that can be selected or ordered by.`,
      ),
    };
  const sorted = [...rows];
  for (const { field, desc } of [...paging.orderBy].reverse()) {
    const key = resolve(field) as string;
    sorted.sort((a, b) => compare(a[key], b[key]) * (desc ? -1 : 1));
  }
  const start = (paging.pageNumber - 1) * paging.pageSize;
  const page = sorted.slice(start, start + paging.pageSize);
  const fields = paging.fields?.map((f) => resolve(f) as string);
  const items = fields ? page.map((r) => Object.fromEntries(fields.map((f) => [f, r[f]]))) : page;
  return { ok: true, value: { items, total: rows.length } };
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return typeof a === "number" && typeof b === "number"
    ? a - b
    : String(a).localeCompare(String(b));
}

/** The `X-Pagination` header value for a page of a list served at `url`. */
export function paginationHeader(url: URL, paging: Paging, total: number): string {
  const totalPages = Math.max(1, Math.ceil(total / paging.pageSize));
  const link = (n: number) => {
    const u = new URL(url);
    for (const k of [...u.searchParams.keys()])
      if (k.toLowerCase() === "pagenumber") u.searchParams.delete(k);
    u.searchParams.set("PageNumber", String(n));
    return u.toString();
  };
  return JSON.stringify({
    totalCount: total,
    pageSize: paging.pageSize,
    currentPage: paging.pageNumber,
    totalPages,
    previousPageLink: paging.pageNumber > 1 ? link(paging.pageNumber - 1) : null,
    nextPageLink: paging.pageNumber < totalPages ? link(paging.pageNumber + 1) : null,
  });
}
