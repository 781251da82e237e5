/**
 * @module
 * `Prefer: pages=all`: one JSON array streamed as the pages arrive. Bounds are judged before a
 * byte is streamed; after, a failure aborts the body rather than give an array missing rows.
 */
import { matchOperation } from "../../../shared/v2/catalog";
import { log } from "../../kernel/log";
import { Problem } from "../../kernel/problem";
import { sendV2, type V2Request } from "../passthrough";
import type { CallTrace } from "../../upstream/client";
import { readConfig } from "../../kernel/config";
import { MAX_PAGES_PER_WALK, pagesOverCap, queryInt, walkSearch } from "./page-size";
import { parsePrefer } from "./prefer";

export const API_DEFAULT_PAGE_SIZE = 5000;

export function wantsAllPages(headers: Headers): boolean {
  return parsePrefer(headers.get("prefer")).get("pages")?.value?.toLowerCase() === "all";
}

/** The configured row cap, lowered (never raised) by a valid `max-rows` preference. */
export function rowCap(
  cap: number,
  asked: string | null | undefined,
): { cap: number; lowered: boolean } {
  const a = asked && /^\d{1,9}$/.test(asked) ? Number(asked) : 0;
  return a > 0 && a < cap ? { cap: a, lowered: true } : { cap, lowered: false };
}

/** The fields of `X-Pagination` the walk reads (keys in any casing). */
export interface Pagination {
  totalCount: number | null;
  pageSize: number | null;
  totalPages: number | null;
  /** False only when the header says there is no next page. */
  hasNext: boolean;
}

export function readPagination(header: string | null): Pagination | null {
  let v: unknown;
  try {
    v = header === null ? null : JSON.parse(header);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const by = new Map(Object.entries(v).map(([k, x]) => [k.toLowerCase(), x] as const));
  const n = (k: string) => {
    const x = by.get(k);
    return typeof x === "number" && Number.isSafeInteger(x) && x >= 0 ? x : null;
  };
  return {
    totalCount: n("totalcount"),
    pageSize: n("pagesize"),
    totalPages: n("totalpages"),
    hasNext: !by.has("nextpagelink") || Boolean(by.get("nextpagelink")),
  };
}

/** A page's rows as the raw JSON between its brackets (ids keep every digit), and their count. */
export function pageRows(text: string): { inner: string; count: number } | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(v)) return null;
  const t = text.trim();
  return { inner: t.slice(1, -1).trim(), count: v.length };
}

/** Whether another page follows: not after a short page, nor past the last the header names. */
export function morePages(
  count: number,
  pageSize: number,
  page: number,
  p: Pagination | null,
): boolean {
  if (count < pageSize || count === 0) return false;
  if (p && !p.hasNext) return false;
  return !(p?.totalPages !== null && p?.totalPages !== undefined && page >= p.totalPages);
}

/** The least time the pages after the first can take, ms. */
export function leastWalkMs(pagesLeft: number, ratePerSecond: number): number {
  return (pagesLeft * 1000) / ratePerSecond;
}

export function withPage(search: string, page: number): string {
  const q = new URLSearchParams(search);
  for (const k of [...q.keys()]) if (k.toLowerCase() === "pagenumber") q.delete(k);
  q.set("PageNumber", String(page));
  return `?${q.toString()}`;
}

/** One streamed array, or the first page's answer as the API gave it when it is not a list. */
export async function allPages(caller: V2Request, trace: CallTrace): Promise<Response> {
  const config = readConfig(caller.env);
  const { cap, lowered } = rowCap(
    config.pagesAllMaxRows,
    parsePrefer(caller.headers.get("prefer")).get("max-rows")?.value,
  );
  const sized = walkSearch(caller.search);
  const r: V2Request = { ...caller, search: sized.search };
  const start = queryInt(r.search, "pagenumber") ?? 1;
  const first = await sendV2(r, null, trace);
  const applied = lowered ? `pages=all, max-rows=${cap}` : "pages=all";
  const size = sized.pageSize ?? API_DEFAULT_PAGE_SIZE;
  if (first.status === 204 && isListPath(r.path)) return arrayAnswer(r, "[]", applied, 0, size);
  if (first.status !== 200 || !/json/i.test(first.headers.get("content-type") ?? "")) return first;
  const bytes = await first.arrayBuffer();
  const rows = pageRows(new TextDecoder().decode(bytes));
  if (!rows) return new Response(bytes, { status: first.status, headers: first.headers });
  const pagination = readPagination(first.headers.get("x-pagination"));
  const pageSize = pagination?.pageSize || size;
  const total = pagination?.totalCount ?? null;
  if (total !== null) {
    const toCome = Math.max(0, total - (start - 1) * pageSize);
    if (toCome > cap)
      throw new Problem(
        "too-many-rows",
        `The list has ${toCome} rows from page ${start} on; Prefer: pages=all answers at most ${cap}. Page with PageNumber and PageSize, or narrow the list with filters.`,
      );
    const overPages = pagesOverCap(toCome, pageSize);
    if (overPages) throw overPages;
    const pagesLeft = Math.max(0, Math.ceil(toCome / pageSize) - 1);
    const least = leastWalkMs(pagesLeft, config.rateLimitPerSecond);
    if (Date.now() + least > r.deadline) {
      throw new Problem(
        "deadline-too-short",
        `${pagesLeft} more pages take at least ${Math.ceil(least)} ms at the API's rate limit, more than is left of the call's deadline. Raise X-Deadline-Ms (up to 120000) or PageSize.`,
      );
    }
  }
  // workerd's own stream: an abort errors the caller's body without an unhandled rejection.
  const { readable, writable } = new IdentityTransformStream();
  void walk(r, trace, writable.getWriter(), { start, pageSize, cap, first: rows, pagination });
  return arrayAnswer(r, readable, applied, total, pageSize);
}

/** Whether `path` is a collection (not ending in `{id}`): an empty one is answered 204. */
function isListPath(path: string): boolean {
  const m = matchOperation("GET", path);
  return m.kind === "operation" && !m.op.path.endsWith("}");
}

function arrayAnswer(
  r: V2Request,
  body: BodyInit,
  applied: string,
  total: number | null,
  pageSize: number,
): Response {
  const headers = new Headers({
    "content-type": "application/json; charset=utf-8",
    "preference-applied": applied,
    "x-page-size": String(pageSize),
    "x-request-id": r.requestId,
  });
  if (total !== null) headers.set("x-total-count", String(total));
  return new Response(body, { status: 200, headers });
}

interface Walk {
  start: number;
  pageSize: number;
  cap: number;
  first: { inner: string; count: number };
  pagination: Pagination | null;
}

/** Writes `[`, every page's rows joined by `,`, and `]`; errors the stream on any failure. */
async function walk(
  r: V2Request,
  trace: CallTrace,
  writer: WritableStreamDefaultWriter,
  w: Walk,
): Promise<void> {
  // An aborted walk rejects `closed`; the caller learns of it from the errored body.
  writer.closed.catch(() => undefined);
  const encoder = new TextEncoder();
  let sent = 0;
  let page = w.start;
  const emit = async (rows: { inner: string; count: number }) => {
    if (rows.count === 0) return;
    sent += rows.count;
    if (sent > w.cap)
      throw new Problem("too-many-rows", `The list grew past ${w.cap} rows while it was read.`);
    await writer.write(encoder.encode(sent === rows.count ? rows.inner : `,${rows.inner}`));
  };
  try {
    await writer.write(encoder.encode("["));
    await emit(w.first);
    let more = morePages(w.first.count, w.pageSize, page, w.pagination);
    while (more) {
      // No total to judge by before streaming (or the list grew): the cap stops it here.
      if (page - w.start + 1 >= MAX_PAGES_PER_WALK)
        throw new Problem(
          "too-many-rows",
          `The list goes on past ${MAX_PAGES_PER_WALK} pages of ${w.pageSize}, the most one walk reads.`,
        );
      page++;
      const res = await sendV2({ ...r, search: withPage(r.search, page) }, null, trace);
      if (res.status === 204) break;
      const rows = res.status === 200 ? pageRows(await res.text()) : null;
      if (!rows)
        throw new Problem(
          "upstream-failed",
          `Page ${page} was answered with status ${res.status}, not a list.`,
        );
      await emit(rows);
      more = morePages(
        rows.count,
        w.pageSize,
        page,
        readPagination(res.headers.get("x-pagination")),
      );
    }
    await writer.write(encoder.encode("]"));
    await writer.close();
  } catch (err) {
    log.info("pages-all-aborted", {
      requestId: r.requestId,
      page,
      rows: sent,
      reason: err instanceof Problem ? err.type : "error",
    });
    // The runtime logs an aborted body's reason: what stopped the walk, never a secret.
    const why = err instanceof Problem ? err.detail : "an internal error";
    await writer
      .abort(new Error(`pages=all aborted at page ${page}: ${why}`))
      .catch(() => undefined);
  }
}
