/**
 * @module
 * The watcher's times (pure). A poll asks for rows changed after a time, by the API's own stamps:
 * the cursor is the latest stamp the API answered (its clock, never ours), and each poll reads
 * back `LOOKBACK_MS` before it, because the filters are exclusive and rows can arrive late: a read
 * replica about a second behind, a transaction that commits after rows stamped later were read,
 * equal stamps on both sides of a page's edge. Rows read twice are recorded once (their events'
 * keys repeat); a row stamped more than `LOOKBACK_MS` before the latest stamp seen, and committed
 * after it was read, is missed: the limit is stated in docs/events.md.
 */

/**
 * How far each poll reads back before its cursor, ms: two minutes. The API's replica lag is about
 * a second (its v1 documentation); the rest is for transactions that commit late and clocks of
 * the API's servers that disagree. It costs nothing in calls (the same one call), only rows read
 * again, which the event log drops.
 */
export const LOOKBACK_MS = 2 * 60 * 1000;

/** A stamp of the API as epoch ms, or null when it is not one (absent, null, unreadable). */
export function stampOf(value: unknown): number | null {
  if (typeof value !== "string" || value.length === 0) return null;
  const t = Date.parse(value.includes("T") ? value : value.replace(" ", "T"));
  return Number.isNaN(t) ? null : t;
}

/**
 * `ms` in the format the API documents for its change filters (`2021-09-25 08:03:00.123456+00:00`),
 * to the millisecond.
 *
 * @example filterTime(Date.UTC(2021, 8, 25, 8, 3, 0, 123)) // "2021-09-25 08:03:00.123000+00:00"
 */
export function filterTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000+00:00`;
}

/** What a poll remembers between cycles (epoch ms). */
export interface PollCursor {
  /** When the poll started watching: nothing before it is announced. */
  floor: number;
  /** The latest stamp the API answered, or null when none yet. */
  seen: number | null;
  /** Where a cycle that ran out of pages (or permits) stopped, to go on from there; else null. */
  resume: ReadStart | null;
}

/**
 * Where a read of a poll starts: after `since`, at page `page`, for a read that began after
 * `from` (what counts as created since the last read: `since` moves ahead as pages are read).
 */
export interface ReadStart {
  since: number;
  page: number;
  from: number;
}

/**
 * Where the next read of a poll starts: where the last cycle stopped if it ran out of pages;
 * otherwise `LOOKBACK_MS` before the latest stamp seen, never before the floor.
 */
export function startOf(c: PollCursor): ReadStart {
  if (c.resume) return c.resume;
  const since = Math.max(c.floor, (c.seen ?? c.floor) - LOOKBACK_MS);
  return { since, page: 1, from: since };
}
