/**
 * @module
 * What one `Prefer: pages=all` walk may cost (`all-pages.ts`): each page is one upstream call and
 * one permit of the environment's 10 a second, so the walk's page size has a floor and its pages a
 * cap. Without them `PageSize=1` turned a list of 1,000 rows into 1,000 calls for one request.
 */
import { Problem } from "../../kernel/problem";

/**
 * The smallest `PageSize` a walk uses: 250. A caller's smaller (valid) one is raised to it, and the
 * answer's `X-Page-Size` says which size was used. Rows are the same whatever the page size; only
 * the number of calls changes. 250 × `MAX_PAGES_PER_WALK` is the default row cap (50,000), so at
 * the floor the two caps agree.
 */
export const MIN_PAGES_ALL_PAGE_SIZE = 250;

/**
 * Most pages one walk reads, the first included: 200 calls, 20 seconds of the whole environment's
 * budget. A list that needs more at its page size is refused before a byte is streamed (`422`
 * `too-many-rows`, like the row cap) when the API gives its total, and the walk is aborted before
 * page 201 when it does not.
 */
export const MAX_PAGES_PER_WALK = 200;

/** A whole-number query parameter, `name` in lower case matched in any casing, or null. */
export function queryInt(search: string, name: string): number | null {
  for (const [k, v] of new URLSearchParams(search))
    if (k.toLowerCase() === name && /^\d{1,9}$/.test(v.trim())) return Number(v);
  return null;
}

/**
 * The query a walk of `search` sends: a `PageSize` from 1 to `MIN_PAGES_ALL_PAGE_SIZE - 1` (in any
 * casing) raised to the floor. A `PageSize` of 0 or one that is not a number is left for the API to
 * refuse. Throws a `Problem` (nothing sent) when the size would be raised under a `PageNumber` past
 * 1: page 3 of 250 rows is not page 3 of 10, and the walk would start at other rows than asked.
 *
 * @param search the caller's query, `?…` or empty
 * @returns the query to send and the page size it asks for (null: the API's default)
 * @example walkSearch("?PageSize=1") // { search: "?PageSize=250", pageSize: 250 }
 */
export function walkSearch(search: string): { search: string; pageSize: number | null } {
  const asked = queryInt(search, "pagesize");
  if (asked === null || asked === 0 || asked >= MIN_PAGES_ALL_PAGE_SIZE)
    return { search, pageSize: asked || null };
  const start = queryInt(search, "pagenumber") ?? 1;
  if (start > 1)
    throw new Problem(
      "bad-request",
      `Prefer: pages=all reads pages of at least ${MIN_PAGES_ALL_PAGE_SIZE} rows, so PageSize=${asked} would be raised and PageNumber=${start} would start at other rows. Ask for PageSize=${MIN_PAGES_ALL_PAGE_SIZE} or more with your PageNumber, or start at PageNumber=1; nothing was sent to the API.`,
    );
  const q = new URLSearchParams(search);
  for (const k of [...q.keys()]) if (k.toLowerCase() === "pagesize") q.delete(k);
  q.set("PageSize", String(MIN_PAGES_ALL_PAGE_SIZE));
  return { search: `?${q.toString()}`, pageSize: MIN_PAGES_ALL_PAGE_SIZE };
}

/**
 * A `Problem` when a walk of `toCome` rows in pages of `pageSize` needs more than
 * `MAX_PAGES_PER_WALK` pages, else null.
 *
 * @example pagesOverCap(60_000, 250) // Problem too-many-rows: 240 pages
 */
export function pagesOverCap(toCome: number, pageSize: number): Problem | null {
  const pages = Math.ceil(toCome / pageSize);
  return pages > MAX_PAGES_PER_WALK
    ? new Problem(
        "too-many-rows",
        `The list's ${toCome} rows take ${pages} pages of ${pageSize}; Prefer: pages=all reads at most ${MAX_PAGES_PER_WALK} pages. Raise PageSize (the API takes up to 20000), or narrow the list with filters.`,
      )
    : null;
}
