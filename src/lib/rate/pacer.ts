/**
 * @module
 * When the next permit may leave: a GCRA (generic cell rate algorithm, a leaky bucket kept as one
 * "theoretical arrival time") with no burst allowance, which slows down after a 429 and creeps back.
 * Pure, like the rest of `lib/rate`: every method takes the time (epoch ms), tests drive the clock,
 * and `fair-queue.ts` decides *who* gets each permit.
 *
 * Why evenly spaced and not "`limit` per window": the API counts a rolling second at its end, so
 * what matters is the gap between a call and the tenth call after it *as they arrive there*. Grants
 * in bursts of ten put ten calls on the wire at once, where they queue behind one another, and the
 * burst's spread is the jitter; the old window (10 per 1.2 s) paid 17 % of the budget for that
 * slack and still drew 429s. Evenly spaced grants at `1000 / (limit × (1 − margin))` ms keep every
 * ten consecutive grants `10 × spacing` apart, so jitter of up to `10 × spacing − 1000` ms on the
 * way (42 ms at a 4 % margin) cannot put eleven calls in one of the API's seconds.
 *
 * Adaptation: a 429 that still comes back means the path's jitter (or another user of the key) is
 * larger than the margin assumed, so the spacing grows by `SLOWDOWN_FACTOR`, once per pause (the
 * other calls already in flight answer 429 together and teach nothing new), up to `MAX_SLOWDOWN`.
 * It creeps back by `RECOVERY_PER_SECOND` for every second without a 429 after the pause, down to
 * the floor. Seconds, not permits: what a 429 teaches (a neighbour's burst on the key, a stall on
 * the way) passes whether or not anyone sends meanwhile, and a pace slowed by one busy minute must
 * not still throttle the next hour's first burst; if the cause is still there, the next 429 slows
 * it again at the cost of one pause.
 */

/** A 429 multiplies the spacing by this (a third slower), as TCP halves its window on a loss, but gentler: a 429 costs a 1 s pause already. */
export const SLOWDOWN_FACTOR = 1.5;
/** The widest spacing, as a multiple of the floor: about 2.4 req/s at a limit of 10, still a trickle for every tenant; four 429s in a row reach it. */
export const MAX_SLOWDOWN = 4;
/** The spacing shrinks by this fraction per second without a 429: back from one slow-down in about 40 s, from the widest in about 140 s. */
export const RECOVERY_PER_SECOND = 0.01;

/** The pace's settings. */
export interface PacerOptions {
  /** The API's limit, requests per second. */
  limit: number;
  /** The fraction of the limit left unused for jitter, 0 ≤ margin < 1. */
  margin: number;
  /**
   * How much of a queued permit's lateness (ms) the next permit may make up. A timer that fires
   * late is the event loop's delay, not idle budget: without this, every millisecond of lateness
   * under load is lost throughput. What is made up comes out of the jitter budget (ten permits
   * span at least `10 × spacing − catchUpMs`), so keep it near the usual lateness, not the worst;
   * capped at half the floor spacing, so a late timer never yields two permits at once.
   */
  catchUpMs: number;
}

/** What the pace looks like now, for counters and the bench. */
export interface PaceState {
  /** The current spacing between permits, ms. */
  spacingMs: number;
  /** The floor of that spacing, ms (`1000 / (limit × (1 − margin))`). */
  floorMs: number;
  /** Permits per second at the current spacing. */
  perSecond: number;
  /** How much longer a pause after a 429 holds every permit, ms (0: none). */
  pausedForMs: number;
}

/**
 * The pace of one environment's permits.
 *
 * @see fair-queue.ts, which asks it when the next permit may leave.
 * @example
 * const pace = new Pacer({ limit: 10, margin: 0.04, catchUpMs: 5 });
 * if (pace.ready(now)) pace.grant(now, false); // then pace.nextAt() is now + 104.2 ms
 */
export class Pacer {
  readonly #floorMs: number;
  readonly #catchUpMs: number;
  /** The spacing the last 429 set; it shrinks back from the end of that 429's pause (see `spacing`). */
  #slowedMs: number;
  /** The earliest time of the next permit, by the spacing alone (the GCRA's theoretical arrival time). */
  #tat = 0;
  #pausedUntil = 0;

  /** @throws TypeError when the limit is not a positive integer, the margin not in [0, 1) or the catch-up negative. */
  constructor(options: PacerOptions) {
    const { limit, margin, catchUpMs } = options;
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`Pacer: limit must be a positive integer, got ${limit}`);
    if (!(margin >= 0 && margin < 1)) throw new TypeError(`Pacer: margin must be at least 0 and below 1, got ${margin}`);
    if (!(catchUpMs >= 0)) throw new TypeError(`Pacer: catchUpMs must not be negative, got ${catchUpMs}`);
    this.#floorMs = 1000 / (limit * (1 - margin));
    this.#slowedMs = this.#floorMs;
    this.#catchUpMs = Math.min(catchUpMs, this.#floorMs / 2);
  }

  /** The earliest time (epoch ms) the next permit may leave: one spacing after the last, never inside a pause. */
  nextAt(): number {
    return Math.max(this.#tat, this.#pausedUntil);
  }

  /** Whether a permit may leave at `now`. */
  ready(now: number): boolean {
    return now >= this.nextAt();
  }

  /**
   * Records a permit leaving at `now` (only when `ready(now)`). `queued`: it goes to a caller who
   * waited for it, so its lateness is the timer's and the next permit may make up `catchUpMs` of
   * it; otherwise (an idle governor answering at once) the next counts from `now`.
   */
  grant(now: number, queued: boolean): void {
    const from = queued ? Math.max(this.nextAt(), now - this.#catchUpMs) : now;
    this.#tat = from + this.spacing(now);
  }

  /**
   * The API answered 429: no permit for `seconds` (at least 1) from `now`, and a wider spacing
   * afterwards. A shorter pause never cuts a longer one; a 429 answered during a pause only
   * lengthens it, since its call left before the pace slowed.
   */
  pause(seconds: number, now: number): void {
    if (now >= this.#pausedUntil) this.#slowedMs = Math.min(this.spacing(now) * SLOWDOWN_FACTOR, this.#floorMs * MAX_SLOWDOWN);
    this.#pausedUntil = Math.max(this.#pausedUntil, now + Math.max(1, seconds) * 1000);
  }

  /** Estimated ms from `now` until the permit that has `ahead` permits before it may leave, at the current spacing. */
  eta(ahead: number, now: number): number {
    return Math.max(0, this.nextAt() - now) + ahead * this.spacing(now);
  }

  /** The spacing at `now`, ms: the last 429's, less `RECOVERY_PER_SECOND` for each second since its pause ended, never below the floor. */
  spacing(now: number): number {
    const seconds = Math.max(0, now - this.#pausedUntil) / 1000;
    return Math.max(this.#floorMs, this.#slowedMs * (1 - RECOVERY_PER_SECOND) ** seconds);
  }

  /** The pace now. */
  state(now: number): PaceState {
    const spacingMs = this.spacing(now);
    return { spacingMs, floorMs: this.#floorMs, perSecond: 1000 / spacingMs, pausedForMs: Math.max(0, this.#pausedUntil - now) };
  }
}
