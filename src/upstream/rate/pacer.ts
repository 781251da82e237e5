/**
 * @module When the next queued permit may leave: a GCRA with no burst allowance, so that ten
 * consecutive permits span the API's second plus a margin for jitter; slower after a 429, creeping
 * back. See docs/design/rate-governor.md.
 */

export const NUDGE_FACTOR = 1.1;
/** A 429 this soon after the last reaction is a pattern, not a stall, ms: pause and slow down. */
export const CALM_MS = 30_000;
/** After a nudge, 429s for this long are the same stall, ms (the API's rolling second). */
export const ECHO_MS = 1000;
export const SLOWDOWN_FACTOR = 1.5;
export const MAX_SLOWDOWN = 4;
export const RECOVERY_PER_SECOND = 0.01;

export type Reaction = "echo" | "nudged" | "slowed";

export interface PacerOptions {
  limit: number;
  /** The fraction of the limit left unused for jitter, 0 ≤ margin < 1. */
  margin: number;
  /** How much of a late timer the next queued permit may make up, ms (at most half the floor). */
  catchUpMs: number;
}

export interface PaceState {
  spacingMs: number;
  floorMs: number;
  perSecond: number;
  pausedForMs: number;
}

/** @example if (pace.ready(now)) pace.grant(now, false); // then nextAt() is now + 104.2 ms */
export class Pacer {
  readonly #floorMs: number;
  readonly #catchUpMs: number;
  #slowedMs: number;
  #recoverFrom = 0;
  /** The GCRA's theoretical arrival time: the next permit's, by the spacing alone. */
  #tat = 0;
  #pausedUntil = Number.NEGATIVE_INFINITY;
  #nextPermit = 0;
  /** The first permit granted after the last reaction: a 429 to an earlier one is an echo. */
  #reactedFrom = 0;
  #lastReaction = Number.NEGATIVE_INFINITY;
  #echoUntil = Number.NEGATIVE_INFINITY;

  /** @throws TypeError on a bad limit, a margin outside [0, 1) or a negative catch-up. */
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

  nextAt(): number {
    return Math.max(this.#tat, this.#pausedUntil);
  }

  ready(now: number): boolean {
    return now >= this.nextAt();
  }

  /** Records a permit leaving now (when `ready`); `queued`: the next may make up its lateness. */
  grant(now: number, queued: boolean): number {
    const from = queued ? Math.max(this.nextAt(), now - this.#catchUpMs) : now;
    this.#tat = from + this.spacing(now);
    return this.#nextPermit++;
  }

  /** Numbers a permit that leaves outside the pace (the watcher's): it moves no spacing. */
  number(): number {
    return this.#nextPermit++;
  }

  /** The earliest whole ms from `now` with no pause and the spacing at its floor. */
  calmAt(now: number): number {
    if (this.#pausedUntil <= now && this.spacing(now) <= this.#floorMs) return now;
    const seconds = Math.log(this.#floorMs / this.#slowedMs) / Math.log(1 - RECOVERY_PER_SECOND);
    let at = Math.max(now, this.#pausedUntil, Math.ceil(this.#recoverFrom + seconds * 1000));
    // Float rounding in `spacing` may leave it an ulp above the floor at the computed time.
    while (this.spacing(at) > this.#floorMs) at++;
    return at;
  }

  /** A 429 to `permit`'s call: a nudge, a pause and a slow-down, or (an echo) no new reaction. */
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

  eta(ahead: number, now: number): number {
    return Math.max(0, this.nextAt() - now) + ahead * this.spacing(now);
  }

  spacing(now: number): number {
    const seconds = Math.max(0, now - this.#recoverFrom) / 1000;
    return Math.max(this.#floorMs, this.#slowedMs * (1 - RECOVERY_PER_SECOND) ** seconds);
  }

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
