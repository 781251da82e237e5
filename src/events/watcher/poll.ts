/**
 * @module
 * One poll of one cycle: read the changes after the poll's start, page by page, record their
 * events, and move the cursor (the I/O is passed in, so tests drive it). Pages go by keyset, not
 * by page number: ordered by the change's stamp, the next page asks for rows changed after the
 * last stamp read (less a millisecond, so rows sharing it are read again, not skipped), because
 * the API has no upper bound and a row that changes while the pages are read moves to the end,
 * where a page number would skip the row that took its place. Only when a whole page shares one
 * millisecond does the page number go up. At most `MAX_PAGES` pages a poll each cycle: the next
 * cycle goes on where this one stopped (`PollCursor.resume`).
 *
 * The events are recorded before the cursor moves past them (the caller stores the cursor after
 * this returns): a cycle cut short re-reads them, and the event log drops the repeats.
 */
import type { EventDraft } from "../types";
import { found, type Found } from "./drafts";
import { filterOf, type PlannedPoll } from "./polls";
import { startOf, stampOf, type PollCursor } from "./times";
import { field } from "../keys";

/** Rows a page asks for: the API allows 20,000; 500 keeps a page's JSON within a few MB. */
export const PAGE_SIZE = 500;
/** Pages one poll reads at most each cycle, so one cycle costs at most 4 × 4 = 16 calls. */
export const MAX_PAGES = 4;

/** What one page read came to. */
export type Page =
  | { kind: "rows"; rows: Record<string, unknown>[] }
  | { kind: "stop"; why: StopReason; retryAfterSeconds?: number };

/** Why a poll stopped before it was done: no permit in time, the API's 429, anything else. */
export type StopReason = "no-permit" | "throttled" | "failed";

/** What a poll needs from the world. */
export interface PollIo {
  /**
   * Reads one page of `p`'s changes after `since` (epoch ms), page `page`: one upstream call, or
   * none when it stops for `no-permit`.
   */
  read(p: PlannedPoll, since: number, page: number): Promise<Page>;
  /** Records drafts in the event log; answers the keys it had not seen before. */
  record(drafts: EventDraft[]): Promise<string[]>;
  /** Epoch ms now. */
  now(): number;
}

/** What a poll came to. */
export interface PollResult {
  cursor: PollCursor;
  calls: number;
  /** Events recorded new, each with how long after its change it was found, ms. */
  delays: number[];
  outcome: "done" | "capped" | { stopped: StopReason; retryAfterSeconds?: number };
}

/** Runs poll `p` from `cursor`. */
export async function runPoll(p: PlannedPoll, cursor: PollCursor, io: PollIo): Promise<PollResult> {
  const stampField = filterOf(p).field;
  const start = startOf(cursor);
  let { since, page } = start;
  const from = start.from;
  let seen = cursor.seen;
  let calls = 0;
  const delays: number[] = [];
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const read = await io.read(p, since, page);
    // A read refused a permit never reached the API: it is no call.
    if (read.kind === "rows" || read.why !== "no-permit") calls++;
    if (read.kind === "stop") {
      const stopped = { stopped: read.why, retryAfterSeconds: read.retryAfterSeconds };
      const resume = { since, page, from };
      return { cursor: { ...cursor, seen, resume }, calls, delays, outcome: stopped };
    }
    const drafts: Found[] = found(p, read.rows, from);
    const fresh = new Set(await io.record(drafts.map((f) => f.draft)));
    const at = io.now();
    for (const f of drafts) if (fresh.has(f.draft.key)) delays.push(Math.max(0, at - f.changedAt));
    const stamps = read.rows.map((r) => stampOf(field(r, stampField))).filter((t) => t !== null);
    const last = stamps.length > 0 ? Math.max(...stamps) : null;
    if (last !== null) seen = Math.max(seen ?? last, last);
    if (read.rows.length < PAGE_SIZE || last === null)
      return { cursor: { ...cursor, seen, resume: null }, calls, delays, outcome: "done" };
    // A full page: the next one after its last stamp; the next page number when the whole page
    // shares that stamp (asking after it again would answer the same page).
    if (Math.min(...stamps) < last) [since, page] = [last - 1, 1];
    else page++;
  }
  return {
    cursor: { ...cursor, seen, resume: { since, page, from } },
    calls,
    delays,
    outcome: "capped",
  };
}
