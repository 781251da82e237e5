/**
 * @module
 * The watcher's times (pure): a cursor is the latest stamp the API answered (its clock, never
 * ours), and each read starts `LOOKBACK_MS` before it, since rows arrive late; rows read twice
 * repeat their keys. See docs/design/events.md.
 */

/** How far each poll reads back before its cursor, ms: rows, never calls. */
export const LOOKBACK_MS = 2 * 60 * 1000;

/** A stamp of the API as epoch ms, or null when it is not one (absent, null, unreadable). */
export function stampOf(value: unknown): number | null {
  if (typeof value !== "string" || value.length === 0) return null;
  const t = Date.parse(value.includes("T") ? value : value.replace(" ", "T"));
  return Number.isNaN(t) ? null : t;
}

/**
 * `ms` in the format the API documents for its change filters.
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
  seen: number | null;
  /** Where a cycle that ran out of pages (or permits) stopped, to go on from there; else null. */
  resume: ReadStart | null;
}

/** Where a read starts: after `since`, at `page`; `from` is its first `since` (what is new). */
export interface ReadStart {
  since: number;
  page: number;
  from: number;
}

/** Where the next read starts: where the last stopped, else `LOOKBACK_MS` before `seen`. */
export function startOf(c: PollCursor): ReadStart {
  if (c.resume) return c.resume;
  const since = Math.max(c.floor, (c.seen ?? c.floor) - LOOKBACK_MS);
  return { since, page: 1, from: since };
}
