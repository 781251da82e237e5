/**
 * @module
 * How the `read` tool pages and trims a list, so an assistant's context is never flooded nor
 * misled: every answer says how many rows it holds, of how many, with a cursor for the rest. The
 * cursor carries no authority (every read is checked again), so it is not signed; a cursor of
 * another read is refused.
 */
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "../../kernel/crypto";

/** Rows asked of the API per call of a paged list: the API's `PageSize`. */
export const READ_PAGE_ITEMS = 100;
/** Most characters of JSON one `read` answers: about 10,000 tokens of an assistant's context. */
export const READ_MAX_CHARS = 40_000;

const Position = z.strictObject({
  /** The read's path and query (without paging), so a cursor cannot continue another read. */
  read: z.string(),
  page: z.int().min(1),
  offset: z.int().min(0),
});
export type Position = z.output<typeof Position>;

export function cursorOf(position: Position): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify(position)));
}

/** The position of `cursor` for the read `read`, or null when it is not a cursor of that read. */
export function positionOf(cursor: string, read: string): Position | null {
  const bytes = fromBase64Url(cursor);
  if (!bytes) return null;
  try {
    const p = Position.safeParse(JSON.parse(new TextDecoder().decode(bytes)) as unknown);
    return p.success && p.data.read === read ? p.data : null;
  } catch {
    return null;
  }
}

/** The rows of `items` from `offset` that fit in `READ_MAX_CHARS` of JSON, in order. */
export function fitting(items: unknown[], offset: number): unknown[] {
  const out: unknown[] = [];
  let size = 2;
  for (const item of items.slice(offset)) {
    size += JSON.stringify(item).length + 1;
    if (size > READ_MAX_CHARS) break;
    out.push(item);
  }
  return out;
}

export interface ListPage {
  totalCount: number | null;
  totalPages: number | null;
}

/** The totals of an `X-Pagination` header (JSON), or nulls when it is absent or unreadable. */
export function listPage(header: string | null): ListPage {
  const P = z.object({ totalCount: z.int().optional(), totalPages: z.int().optional() });
  try {
    const p = P.safeParse(JSON.parse(header ?? "") as unknown);
    return p.success
      ? { totalCount: p.data.totalCount ?? null, totalPages: p.data.totalPages ?? null }
      : { totalCount: null, totalPages: null };
  } catch {
    return { totalCount: null, totalPages: null };
  }
}
