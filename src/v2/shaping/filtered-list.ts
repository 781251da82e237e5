/**
 * @module
 * The one way the gateway reads a list for itself: a filtered `GET` sent like any call of the
 * caller's, and its rows read. Used by the code lookups and by the recovery of a lost create.
 */
import { readCapped } from "../../../shared/bytes";
import { sendV2, type V2Request } from "../passthrough";
import type { CallTrace } from "../../upstream/client";

/**
 * The largest list answer read, bytes: held whole in memory, and far above what either lookup
 * asks for. A larger one means a filter the API ignored, so it is reported, never read on.
 */
export const MAX_FILTERED_LIST_BYTES = 256 * 1024;

/** Rows (none for a 204), the API's other answer unread, or a 200 that gave no usable rows. */
export type FilteredList =
  | { kind: "rows"; rows: unknown[] }
  | { kind: "refused"; response: Response }
  | { kind: "unreadable"; why: Unreadable }
  | { kind: "broken"; error: unknown };

export type Unreadable = "too-large" | "not-json" | "not-a-list";

/**
 * GETs `path` + `search` for `r`'s caller and reads its rows. Throws a `Problem` when no answer
 * comes.
 *
 * @example await getFilteredList(r, trace, "/Customers", "?customerNos=10001")
 */
export async function getFilteredList(
  r: V2Request,
  trace: CallTrace,
  path: string,
  search: string,
): Promise<FilteredList> {
  const res = await sendV2(
    {
      ...r,
      method: "GET",
      path,
      search,
      headers: new Headers({ accept: "application/json" }),
      body: null,
    },
    null,
    trace,
  );
  if (res.status === 204) return { kind: "rows", rows: [] };
  if (res.status !== 200) return { kind: "refused", response: res };
  let bytes: Uint8Array | null;
  try {
    bytes = res.body ? await readCapped(res.body, MAX_FILTERED_LIST_BYTES) : new Uint8Array();
  } catch (error) {
    return { kind: "broken", error };
  }
  if (bytes === null) return { kind: "unreadable", why: "too-large" };
  let rows: unknown;
  try {
    rows = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { kind: "unreadable", why: "not-json" };
  }
  return Array.isArray(rows) ? { kind: "rows", rows } : { kind: "unreadable", why: "not-a-list" };
}
