/**
 * @module
 * What one `Prefer: pages=all` walk may cost: each page is one permit of the environment's budget,
 * so the page size has a floor and the pages a cap.
 */
import { Problem } from "../../kernel/problem";

/** The smallest `PageSize` a walk uses; × `MAX_PAGES_PER_WALK` it is the default row cap. */
export const MIN_PAGES_ALL_PAGE_SIZE = 250;

/** Most pages one walk reads, the first included: 20 s of the environment's budget. */
export const MAX_PAGES_PER_WALK = 200;

/** A whole-number query parameter (`name` lower case, matched in any casing), or null. */
export function queryInt(search: string, name: string): number | null {
  for (const [k, v] of new URLSearchParams(search))
    if (k.toLowerCase() === name && /^\d{1,9}$/.test(v.trim())) return Number(v);
  return null;
}

/**
 * The query a walk sends: a smaller `PageSize` raised to the floor. Throws when that would happen
 * under a `PageNumber` past 1: the walk would start at other rows than asked.
 *
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

/** @example pagesOverCap(60_000, 250) // Problem too-many-rows: 240 pages */
export function pagesOverCap(toCome: number, pageSize: number): Problem | null {
  const pages = Math.ceil(toCome / pageSize);
  return pages > MAX_PAGES_PER_WALK
    ? new Problem(
        "too-many-rows",
        `The list's ${toCome} rows take ${pages} pages of ${pageSize}; Prefer: pages=all reads at most ${MAX_PAGES_PER_WALK} pages. Raise PageSize (the API takes up to 20000), or narrow the list with filters.`,
      )
    : null;
}
