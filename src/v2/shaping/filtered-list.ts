/**
 * @module
 * The one way the gateway reads a list for itself: a `GET` of a list filtered down to a few
 * records, sent through the upstream client like any call of the caller's (its permit, its token,
 * its deadline, counted in its trace), and its rows read. Used by the code lookups
 * (`write-body.ts`) and by the recovery of a create whose answer was lost
 * (`idempotency-recovery.ts`); each decides what an answer that is not a list means for it.
 */
import { readCapped } from "../../../shared/bytes";
import { sendV2, type V2Request } from "../passthrough";
import type { CallTrace } from "../../upstream/client";

/**
 * The largest list answer read, bytes. Why a cap, for both callers: this body is parsed by the
 * gateway itself, not streamed on to a caller, so an answer of any size would be held whole in the
 * Worker's memory. Neither lookup needs much: a filter on a unique reference finds one record, and
 * a code lookup asks for at most `MAX_CODES_PER_LOOKUP` rows (`code-refs.ts`), a few KB with its
 * two fields and still far below this if the API sent whole records. A larger answer is not one
 * either lookup can trust (a filter the API ignored), so it is reported, never read on.
 */
export const MAX_FILTERED_LIST_BYTES = 256 * 1024;

/**
 * What the list `GET` gave: its rows (none for a 204), the API's other answer untouched (its body
 * unread, for the caller to pass back or cancel), a 200 whose body is not a list of at most
 * `MAX_FILTERED_LIST_BYTES`, or a 200 whose body broke off while read (with what reading threw).
 */
export type FilteredList =
  | { kind: "rows"; rows: unknown[] }
  | { kind: "refused"; response: Response }
  | { kind: "unreadable"; why: Unreadable }
  | { kind: "broken"; error: unknown };

/**
 * Why a 200's body gave no rows: larger than `MAX_FILTERED_LIST_BYTES`, not JSON, or JSON but not
 * an array.
 */
export type Unreadable = "too-large" | "not-json" | "not-a-list";

/**
 * GETs `path` + `search` for `r`'s caller and reads its rows. Throws a `Problem` when no answer
 * comes (as `sendV2`).
 *
 * @param r the caller's request, whose caller, deadline and environment the lookup uses
 * @param trace the caller's trace: the lookup is one more upstream call in it
 * @param path the list, e.g. `/Customers`
 * @param search its query with the filter, `?…`
 * @returns the rows, or why there are none to read
 * @example await getFilteredList(r, trace, "/Customers", "?customerNos=10001") // { kind: "rows",
 * rows: [{ Id: 7, Number: 10001 }] }
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
