/**
 * @module
 * When a failed delivery is tried again: Svix's schedule by default, each wait jittered ±10 % and
 * stretched to a receiver's longer `Retry-After`. See docs/design/events.md.
 */
import type { Result } from "../kernel/result";

/** The default waits between attempts, as `EVENT_RETRY_SCHEDULE` writes them. */
export const DEFAULT_RETRY_SCHEDULE = "5s 5m 30m 2h 5h 10h 10h";
/** The longest retry delay of a Queues message, s (12 h). */
export const MAX_WAIT_SECONDS = 12 * 60 * 60;
/** Most waits a schedule may have (the queue's `max_retries` leaves room). */
export const MAX_RETRIES = 12;

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/**
 * The waits of a schedule written as `5s 5m 2h` (seconds, minutes, hours), or why not.
 *
 * @example parseSchedule("5s 5m") // { ok: true, value: [5, 300] }
 */
export function parseSchedule(text: string): Result<number[], string> {
  const parts = text
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  const waits: number[] = [];
  for (const p of parts) {
    const m = /^(\d{1,6})([smh])$/.exec(p);
    const seconds = m ? Number(m[1]) * (UNITS[m[2] ?? "s"] ?? 1) : Number.NaN;
    if (!(seconds >= 0 && seconds <= MAX_WAIT_SECONDS))
      return { ok: false, error: `not a wait of 0s–12h: ${p}` };
    waits.push(seconds);
  }
  if (waits.length === 0 || waits.length > MAX_RETRIES)
    return { ok: false, error: `1–${MAX_RETRIES} waits` };
  return { ok: true, value: waits };
}

export const retryWindowSeconds = (waits: readonly number[]): number =>
  waits.reduce((a, b) => a + b, 0);

/**
 * The wait before attempt `failed + 1`, s, or null when `failed` attempts used the schedule up.
 *
 * @param random a number in [0, 1) for the jitter
 */
export function nextWait(
  waits: readonly number[],
  failed: number,
  retryAfter: number | null,
  random: number,
): number | null {
  const base = waits[failed - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (0.9 + 0.2 * random));
  return Math.min(MAX_WAIT_SECONDS, Math.max(jittered, retryAfter ?? 0));
}
