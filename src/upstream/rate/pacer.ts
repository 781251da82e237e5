/**
 * @module
 * When the next permit may leave: a GCRA (generic cell rate algorithm, a leaky bucket kept as one
 * "theoretical arrival time") with no burst allowance, which slows down after a 429 and creeps
 * back. Pure, like the rest of `upstream/rate/`: every method takes the time (epoch ms), tests
 * drive the clock, and `fair-queue.ts` decides *who* gets each permit.
 *
 * Why evenly spaced and not "`limit` per window": the API counts a rolling second at its end, so
 * what matters is the gap between a call and the tenth call after it *as they arrive there*. Grants
 * in bursts of ten put ten calls on the wire at once, where they queue behind one another, and the
 * burst's spread is the jitter; the old window (10 per 1.2 s) paid 17 % of the budget for that
 * slack and still drew 429s. Evenly spaced grants at `1000 / (limit × (1 − margin))` ms keep every
 * ten consecutive grants `10 × spacing` apart, so jitter of up to `10 × spacing − 1000` ms on the
 * way (42 ms at a 4 % margin) cannot put eleven calls in one of the API's seconds. Since issue 26
 * this is the pace of what has to queue: a request that finds the last second's budget free goes at
 * once (`grant-window.ts`, which bounds every second by a count of grants, not by their spacing).
 *
 * Adaptation, in two steps, because a 429 means one of two things:
 * - A stall on the way: one call held up longer than the margin covers, then delivered together
 *   with later ones. Traced in `npm run bench -- orders` (2026-11-23, 100 orders at once): sends
 *   left the gateway on time (at most 9 ms after their permit) and reached the sandbox 4 ms later
 *   at the median, 29 ms at the 99th percentile, but once 449 ms later, together with two later
 *   calls: the only 429 of the run. No margin covers that, and the pace was right. So a 429 after a
 *   calm spell only nudges the spacing (`NUDGE_FACTOR`) and stops nothing: the API's window slides
 *   (Azure API Management's `rate-limit`, which answers for the API), so once the stalled calls age
 *   out of it, within `ECHO_MS`, evenly spaced calls find room again; 429s meanwhile are the same
 *   stall and change nothing more. The throttled calls themselves still wait their Retry-After
 *   before they are resent. Holding every tenant for the Retry-After (1 s) and slowing by a third,
 *   as the first version did, turned that one 429 into a fifth of a 50 s run.
 * - A pace too fast for the key (another user of the same key, a lower limit than configured): then
 *   429s repeat. A 429 within `CALM_MS` of the last reaction stops every permit for its Retry-After
 *   and widens the spacing by `SLOWDOWN_FACTOR`, up to `MAX_SLOWDOWN`.
 * Answers to calls that had their permit before the pace last reacted teach nothing new either
 * (they left at the old pace; permits are numbered to tell): they only lengthen a pause that is on.
 * The spacing creeps back by `RECOVERY_PER_SECOND` for every second without a 429 after a reaction
 * (after its pause, if any), down to the floor. Seconds, not permits: what a 429 teaches passes
 * whether or not anyone sends meanwhile, and a pace slowed by one busy minute must not still
 * throttle the next hour's first burst.
 */

/**
 * A first 429 after a calm spell widens the spacing by this (a tenth slower): back at the floor in
 * about 10 s.
 */
export const NUDGE_FACTOR = 1.1;
/**
 * A 429 this soon after the last reaction is a pattern, not a stall, ms: it pauses everything and
 * slows by `SLOWDOWN_FACTOR`.
 */
export const CALM_MS = 30_000;
/**
 * After a nudge, 429s for this long are the same stall, ms: the API's rolling second, in which the
 * stalled calls still count.
 */
export const ECHO_MS = 1000;
/**
 * A repeated 429 multiplies the spacing by this (a third slower), as TCP halves its window on a
 * loss, but gentler: it costs a pause already.
 */
export const SLOWDOWN_FACTOR = 1.5;
/**
 * The widest spacing, as a multiple of the floor: about 2.4 req/s at a limit of 10, still a trickle
 * for every tenant.
 */
export const MAX_SLOWDOWN = 4;
/**
 * The spacing shrinks by this fraction per second without a 429: back from a nudge in about 10 s,
 * from one slow-down in about 40 s.
 */
export const RECOVERY_PER_SECOND = 0.01;

/**
 * How the pace took a 429: not at all (the echo of what it last reacted to), a nudge, or a pause
 * and a slow-down.
 */
export type Reaction = "echo" | "nudged" | "slowed";

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
 * if (pace.ready(now)) pace.grant(now, false); // permit 0; then pace.nextAt() is now + 104.2 ms
 */
export class Pacer {
  readonly #floorMs: number;
  readonly #catchUpMs: number;
  /** The spacing the last reaction set; it shrinks back from `#recoverFrom` (see `spacing`). */
  #slowedMs: number;
  #recoverFrom = 0;
  /**
   * The earliest time of the next permit, by the spacing alone (the GCRA's theoretical arrival
   * time).
   */
  #tat = 0;
  #pausedUntil = Number.NEGATIVE_INFINITY;
  /** The number the next permit gets. */
  #nextPermit = 0;
  /**
   * The first permit granted after the last reaction: a 429 to an earlier one left at the old pace.
   */
  #reactedFrom = 0;
  #lastReaction = Number.NEGATIVE_INFINITY;
  /** Until when a 429 is the echo of the last reaction's cause, whatever its permit. */
  #echoUntil = Number.NEGATIVE_INFINITY;

  /**
   * @throws TypeError when the limit is not a positive integer, the margin not in [0, 1) or the
   * catch-up negative.
   */
  constructor(options: PacerOptions) {
    const { limit, margin, catchUpMs } = options;
    if (!Number.isInteger(limit) || limit < 1)
      throw new TypeError(`Pacer: limit must be a positive integer, got ${limit}`);
    if (!(margin >= 0 && margin < 1))
      throw new TypeError(`Pacer: margin must be at least 0 and below 1, got ${margin}`);
    if (!(catchUpMs >= 0))
      throw new TypeError(`Pacer: catchUpMs must not be negative, got ${catchUpMs}`);
    this.#floorMs = 1000 / (limit * (1 - margin));
    this.#slowedMs = this.#floorMs;
    this.#catchUpMs = Math.min(catchUpMs, this.#floorMs / 2);
  }

  /**
   * The earliest time (epoch ms) the next permit may leave: one spacing after the last, never
   * inside a pause.
   */
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
   * it; otherwise (an idle governor answering at once) the next counts from `now`. Answers the
   * permit's number, which its caller hands back with a 429 (see `throttled`).
   */
  grant(now: number, queued: boolean): number {
    const from = queued ? Math.max(this.nextAt(), now - this.#catchUpMs) : now;
    this.#tat = from + this.spacing(now);
    return this.#nextPermit++;
  }

  /**
   * Numbers a permit that leaves outside the pace and moves no spacing: the watcher's
   * (`watcher-room.ts`), which only takes places the window has free, so that the first class's
   * pace is the same with or without it. Its number still tells a 429 to it from an echo.
   */
  number(): number {
    return this.#nextPermit++;
  }

  /**
   * The earliest whole ms at or after `now` when no pause holds and the spacing is back at its
   * floor (`now` if both hold already): when the pace has forgotten its last 429.
   */
  calmAt(now: number): number {
    if (this.#pausedUntil <= now && this.spacing(now) <= this.#floorMs) return now;
    const seconds = Math.log(this.#floorMs / this.#slowedMs) / Math.log(1 - RECOVERY_PER_SECOND);
    let at = Math.max(now, this.#pausedUntil, Math.ceil(this.#recoverFrom + seconds * 1000));
    // Float rounding in `spacing` may leave it an ulp above the floor at the computed time.
    while (this.spacing(at) > this.#floorMs) at++;
    return at;
  }

  /**
   * The API answered 429, with a Retry-After of `seconds`, to the call of permit `permit` (the
   * number `grant` returned). After a calm spell: a nudge, nothing stops. Within `CALM_MS` of the
   * last reaction: no permit for `seconds` (at least 1) from `now`, and a wider spacing afterwards.
   * An echo (within `ECHO_MS` of a nudge, or to a permit granted before the last reaction) changes
   * no pace, and only lengthens a pause that is on (a shorter pause never cuts a longer one).
   */
  throttled(seconds: number, now: number, permit: number): Reaction {
    const hold = now + Math.max(1, seconds) * 1000;
    if (permit < this.#reactedFrom || now < this.#echoUntil) {
      if (this.#pausedUntil > now) this.#pausedUntil = Math.max(this.#pausedUntil, hold);
      return "echo";
    }
    const repeated = now - this.#lastReaction < CALM_MS;
    this.#slowedMs = Math.min(
      this.spacing(now) * (repeated ? SLOWDOWN_FACTOR : NUDGE_FACTOR),
      this.#floorMs * MAX_SLOWDOWN,
    );
    if (repeated) this.#pausedUntil = Math.max(this.#pausedUntil, hold);
    this.#recoverFrom = Math.max(now, this.#pausedUntil);
    this.#lastReaction = now;
    this.#reactedFrom = this.#nextPermit;
    this.#echoUntil = repeated ? this.#pausedUntil : now + ECHO_MS;
    return repeated ? "slowed" : "nudged";
  }

  /**
   * Estimated ms from `now` until the permit that has `ahead` permits before it may leave, at the
   * current spacing.
   */
  eta(ahead: number, now: number): number {
    return Math.max(0, this.nextAt() - now) + ahead * this.spacing(now);
  }

  /**
   * The spacing at `now`, ms: the last reaction's, less `RECOVERY_PER_SECOND` for each second since
   * it (its pause) ended, never below the floor.
   */
  spacing(now: number): number {
    const seconds = Math.max(0, now - this.#recoverFrom) / 1000;
    return Math.max(this.#floorMs, this.#slowedMs * (1 - RECOVERY_PER_SECOND) ** seconds);
  }

  /** The pace now. */
  state(now: number): PaceState {
    const spacingMs = this.spacing(now);
    return {
      spacingMs,
      floorMs: this.#floorMs,
      perSecond: 1000 / spacingMs,
      pausedForMs: Math.max(0, this.#pausedUntil - now),
    };
  }
}
