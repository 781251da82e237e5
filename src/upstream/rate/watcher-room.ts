/**
 * @module
 * When the watcher (issue 30), the governor's low class, may take a permit: only from what the
 * first class leaves, up to its share, and never soon after a 429. Pure, like the rest of
 * `upstream/rate/`: every method takes the time; `fair-queue.ts` asks it only when nobody of the
 * first class waits.
 *
 * The rule: a watcher permit goes at `t` only if nobody of the first class waits, no pause holds
 * and the pace is back at its floor with a first-class permit due (so the watcher never slips in
 * between a burst and its paced rest), no 429 came in the last `WATCHER_BACKOFF_MS`, the window
 * holds fewer than `places` watcher permits (its share: 2 of 10 at the default 20 %), the first
 * class holds at most `limit − places` of the window (the room beyond what it is using), and the
 * window has a free place within the burst the API has been seen to take.
 *
 * Why that never delays a caller who leaves the share free: the first class decides on its own
 * grants alone (its pace, its burst and reserve, its estimate: `grant-window.ts`), so the only rule
 * a watcher permit touches is the window's limit, which counts every grant. While the first class
 * holds at most `limit − places` permits in every window, first class and watcher together hold at
 * most `limit`, that rule never binds a caller any sooner than it would alone, and every caller is
 * granted at exactly the time it would be with no watcher at all
 * (test/upstream/rate/watcher-room.unit.test.ts checks it over random arrivals against the same
 * arrivals with no watcher).
 *
 * What no rule can promise: that a caller who, within one window after a watcher permit, wants more
 * than `limit − places` places waits for nothing. The API counts the watcher's call whatever comes
 * next, and callers may take all ten places at once (eight of a burst and the two reserve places of
 * other tenants): any permit given to anyone else, ever, could be the one a burst a moment later
 * wants. Such a burst loses at most the watcher's places of that window (2), each until it ages out
 * (at most one window, 1036.7 ms, after it was granted), and a saturated key grants the watcher
 * nothing. The alternative, keeping the share away from callers always, would cost every caller a
 * fifth of the budget to spare a rare burst a fraction of a second.
 *
 * The 429 back-off: any 429 (to anyone's call: the key is shared) keeps the watcher out for
 * `WATCHER_BACKOFF_MS` (or the Retry-After, if longer), and until the pace has forgotten it: no
 * pause, the spacing back at its floor (`Pacer.calmAt`). Callers pause only for the Retry-After of
 * a repeated 429, or not at all after a first one; the watcher stays out longer in every case, for
 * the pace's reason: a 429 within `CALM_MS` of the last one is taken as a pattern and pauses and
 * slows every caller, so a poll sent in that spell could turn a stall into a pause for everyone.
 */
import type { GrantWindow } from "./grant-window";
import { CALM_MS, type Pacer } from "./pacer";

/**
 * How long a 429 keeps the watcher out at least, ms: the pace's calm spell (`CALM_MS`, 30 s), in
 * which another 429 would pause and slow every caller.
 */
export const WATCHER_BACKOFF_MS = CALM_MS;
/**
 * The Retry-After told to a watcher when the watcher is off (a share of 0), ms: the setting changes
 * only with a deploy, so a minute is as good as any.
 */
export const WATCHER_OFF_RETRY_MS = 60_000;

/** What the console and the bench see of the watcher. */
export interface WatcherState {
  /** Places of the window the watcher may hold at once (0: off). */
  places: number;
  /** Watcher permits in the window now. */
  inWindow: number;
  /** Watchers waiting now. */
  waiting: number;
  /** How much longer a 429 keeps the watcher out, ms (0: none). */
  backedOffForMs: number;
}

/**
 * The watcher's room in the window, and its back-off.
 *
 * @see fair-queue.ts, which serves the watcher's queue from it; lanes.ts, `watcherPlaces`.
 * @example
 * const room = new WatcherRoom(watcherPlaces(10, 0.2));
 * if (room.openAt(now, window, pacer) <= now) grantTheNextWatcher();
 */
export class WatcherRoom {
  /** Places of the window the watcher may hold at once. */
  readonly places: number;
  #backoffUntil = Number.NEGATIVE_INFINITY;

  /** @throws TypeError when `places` is not a whole number ≥ 0. */
  constructor(places: number) {
    if (!Number.isInteger(places) || places < 0)
      throw new TypeError(`WatcherRoom: places must be a whole number, got ${places}`);
    this.places = places;
  }

  /** The API answered 429 at `now`, with a Retry-After of `seconds`, to anyone's call. */
  throttled(now: number, seconds: number): void {
    const hold = Math.max(WATCHER_BACKOFF_MS, Math.max(1, seconds) * 1000);
    this.#backoffUntil = Math.max(this.#backoffUntil, now + hold);
  }

  /**
   * How much longer a 429 keeps the watcher out from `now`, ms (0: not at all): its back-off, and
   * the pace's calm. A watcher does not wait that out in the queue: it is refused, and told when.
   */
  outFor(now: number, pacer: Pacer): number {
    return Math.max(0, Math.max(this.#backoffUntil, pacer.calmAt(now)) - now);
  }

  /**
   * The earliest time from `now` a watcher permit may go, if nobody of the first class waits and
   * no grant comes meanwhile (Infinity when the watcher is off): the latest of the back-off, the
   * pace's calm, the watcher's own share, the first class's part and a free place of the burst.
   */
  openAt(now: number, window: GrantWindow, pacer: Pacer): number {
    if (this.places === 0) return Infinity;
    return Math.max(
      this.#backoffUntil,
      pacer.calmAt(now),
      pacer.nextAt(),
      window.freeAt(now, this.places, 0, "low"),
      window.freeAt(now, window.limit - this.places + 1, 0, "first"),
      window.freeAt(now, window.burst(now)),
    );
  }

  /**
   * Estimated wait of a new watcher request, ms, with `ahead` watchers queued before it and
   * `firstWaiting` first-class requests to be served first: after the first class's queue and the
   * room opening, one window more for every `places` watchers ahead. Callers who come meanwhile go
   * first, so it is a lower bound; a watcher waits at most its turn (`events/watcher/cadence.ts`,
   * `turnWaitMs`), else it is refused and asks again after this.
   */
  estimate(
    now: number,
    window: GrantWindow,
    pacer: Pacer,
    firstWaiting: number,
    ahead: number,
  ): number {
    if (this.places === 0) return WATCHER_OFF_RETRY_MS;
    const first = firstWaiting > 0 ? pacer.eta(firstWaiting, now) : 0;
    const open = this.openAt(now, window, pacer) - now;
    return Math.max(first, open) + Math.floor(ahead / this.places) * window.spanMs;
  }

  /** The watcher as the console shows it, with `waiting` watchers queued. */
  state(now: number, window: GrantWindow, pacer: Pacer, waiting: number): WatcherState {
    return {
      places: this.places,
      inWindow: window.count(now, "low"),
      waiting,
      backedOffForMs: this.outFor(now, pacer),
    };
  }
}
