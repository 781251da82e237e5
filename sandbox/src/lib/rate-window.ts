/**
 * @module
 * The rate limit of one subscription key, counted as the API's front layer (Azure API Management's
 * `rate-limit`: a sliding window of `renewal-period`) counts it: by when each call *arrived*. Pure:
 * the caller passes the arrival stamp and the time it decides at, so tests drive both.
 *
 * Why the arrival is passed in and not read when the platform object decides: the object handles
 * one event at a time, so calls that arrived apart wait their turn behind the ones before them
 * (a token hash, a settings write) and would be stamped together when it gets to them. A trace of
 * 100 orders at once saw eight calls that reached the Worker within 33 ms stamped over 71 ms, up
 * to 123 ms after they arrived, which put them into the next call's second and drew a 429 that
 * the API, stamping at its edge, would not have answered. The same queueing can hand the object
 * calls slightly out of their order of arrival; a call is admitted only if every second it falls
 * in keeps the limit, so the order the object sees them in cannot let eleven into one second.
 */

/** The settings a decision needs (`Settings`' `rateLimitPerSecond` and `fixedWindowMs`). */
export interface RateRule {
  /** Calls a second. */
  perSecond: number;
  /** A fixed window of this many ms instead of a sliding second (null: sliding). */
  fixedWindowMs: number | null;
}

/** Length of the sliding window, ms: the API counts requests per second. */
export const RATE_WINDOW_MS = 1000;

/**
 * Arrival stamps of the calls admitted lately, oldest first.
 *
 * @example
 * const w = new ArrivalWindow();
 * w.take(arrivedAt, Date.now(), { perSecond: 10, fixedWindowMs: null }); // 0: admitted
 */
export class ArrivalWindow {
  #stamps: number[] = [];

  /**
   * Admits a call that arrived at `arrivedAt`, deciding at `now`: 0 when it may pass (and is
   * counted), else the whole seconds to wait. An arrival stamp later than `now` (another isolate's
   * clock) counts as `now`.
   */
  take(arrivedAt: number, now: number, rule: RateRule): number {
    const at = Math.min(arrivedAt, now);
    // Nothing older than a window before the earliest call still to be decided matters; calls are
    // decided within moments of arriving, so a window before `now` less one more is ample.
    const keepAfter = Math.min(at, now - RATE_WINDOW_MS) - RATE_WINDOW_MS;
    this.#stamps = this.#stamps.filter((t) => t > keepAfter);
    return rule.fixedWindowMs === null
      ? this.#sliding(at, rule.perSecond)
      : this.#fixed(at, rule.fixedWindowMs, rule.perSecond);
  }

  /** The admitted calls' stamps in the second before `at`, as ms before it: why a 429 came. */
  before(at: number): number[] {
    return this.#stamps.filter((t) => t > at - RATE_WINDOW_MS && t <= at).map((t) => at - t);
  }

  /** Takes every stamp as `ms` older (the sandbox's clock skip, see `SandboxPlatform`). */
  skip(ms: number): void {
    this.#stamps = this.#stamps.map((t) => t - ms);
  }

  /** Forgets every call (a settings change or a reset). */
  clear(): void {
    this.#stamps = [];
  }

  /**
   * The rolling second: `at` may pass if no second that contains it, `(t − 1000, t]` for `t` in
   * `[at, at + 1000)`, would then hold more than `limit`. For calls decided in arrival order only
   * the second ending at `at` can be full, which is the usual rule; a call decided after later
   * arrivals also checks the seconds that end at those.
   */
  #sliding(at: number, limit: number): number {
    const ends = [at, ...this.#stamps.filter((t) => t > at && t < at + RATE_WINDOW_MS)];
    const full = ends.some(
      (end) => this.#stamps.filter((t) => t > end - RATE_WINDOW_MS && t <= end).length >= limit,
    );
    if (!full) {
      this.#insert(at);
      return 0;
    }
    // Room again once the oldest call of its second ages out: at least a second, as the API says.
    const oldest = this.#stamps.find((t) => t > at - RATE_WINDOW_MS) ?? at;
    return Math.max(1, Math.ceil((oldest + RATE_WINDOW_MS - at) / 1000));
  }

  /** A fixed window: `limit × windowMs / 1000` calls (at least 1) from each window's start. */
  #fixed(at: number, windowMs: number, perSecond: number): number {
    const start = Math.floor(at / windowMs) * windowMs;
    const share = Math.max(1, Math.floor((perSecond * windowMs) / 1000));
    const inWindow = this.#stamps.filter((t) => t >= start && t < start + windowMs).length;
    if (inWindow < share) {
      this.#insert(at);
      return 0;
    }
    return Math.max(1, Math.ceil((start + windowMs - at) / 1000));
  }

  #insert(at: number): void {
    const i = this.#stamps.findIndex((t) => t > at);
    if (i === -1) this.#stamps.push(at);
    else this.#stamps.splice(i, 0, at);
  }
}
