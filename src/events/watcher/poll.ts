/**
 * @module
 * One poll of one cycle: pages of changes read by keyset (after the last stamp, not by page
 * number), their events recorded before the caller stores the moved cursor. See
 * docs/design/events.md.
 */
import type { EventDraft } from "../types";
import { found, type Found } from "./drafts";
import { filterOf, type PlannedPoll } from "./polls";
import { startOf, stampOf, type PollCursor } from "./times";
import { field } from "../keys";

/** Rows a page asks for (a few MB of JSON), and pages one poll reads at most a cycle. */
export const PAGE_SIZE = 500;
export const MAX_PAGES = 4;

export type Page =
  | { kind: "rows"; rows: Record<string, unknown>[] }
  | { kind: "stop"; why: StopReason; retryAfterSeconds?: number };

/** Why a poll stopped before it was done: no permit in time, the API's 429, anything else. */
export type StopReason = "no-permit" | "throttled" | "failed";

/** What a poll needs from the world (passed in, so tests drive it). */
export interface PollIo {
  /** One page of `p`'s changes after `since`: one upstream call, none when `no-permit`. */
  read(p: PlannedPoll, since: number, page: number): Promise<Page>;
  /** Records drafts in the event log; answers the keys it had not seen before. */
  record(drafts: EventDraft[]): Promise<string[]>;
  now(): number;
}

export interface PollResult {
  cursor: PollCursor;
  calls: number;
  /** Events recorded new, each with how long after its change it was found, ms. */
  delays: number[];
  outcome: "done" | "capped" | { stopped: StopReason; retryAfterSeconds?: number };
}

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
    // A full page: the next after its last stamp (less 1 ms); the next page number when the whole
    // page shares that stamp (asking after it again would answer the same page).
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
