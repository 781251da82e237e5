/**
 * @module When the watcher may take a permit. Invariant: a caller who leaves the watcher's share
 * free is granted exactly when it would be with no watcher. See docs/design/rate-governor.md.
 */
import type { GrantWindow } from "./grant-window";
import { CALM_MS, type Pacer } from "./pacer";

/** How long a 429 keeps the watcher out at least, ms: the spell in which another pauses all. */
export const WATCHER_BACKOFF_MS = CALM_MS;
export const WATCHER_OFF_RETRY_MS = 60_000;

export interface WatcherState {
  places: number;
  inWindow: number;
  waiting: number;
  backedOffForMs: number;
}

/** @example if (room.openAt(now, window, pacer) <= now) grantTheNextWatcher(); */
export class WatcherRoom {
  readonly places: number;
  #backoffUntil = Number.NEGATIVE_INFINITY;

  /** @throws TypeError when `places` is not a whole number ≥ 0. */
  constructor(places: number) {
    if (!Number.isInteger(places) || places < 0)
      throw new TypeError(`WatcherRoom: places must be a whole number, got ${places}`);
    this.places = places;
  }

  /** A 429 to anyone's call (the key is shared). */
  throttled(now: number, seconds: number): void {
    const hold = Math.max(WATCHER_BACKOFF_MS, Math.max(1, seconds) * 1000);
    this.#backoffUntil = Math.max(this.#backoffUntil, now + hold);
  }

  /** How much longer a 429 keeps the watcher out, ms: its back-off, and the pace's calm. */
  outFor(now: number, pacer: Pacer): number {
    return Math.max(0, Math.max(this.#backoffUntil, pacer.calmAt(now)) - now);
  }

  /** When a watcher permit may go if no first-class request waits and no grant comes (∞: off). */
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

  /** Estimated wait of a new watcher request, ms: a lower bound (callers go first). */
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

  state(now: number, window: GrantWindow, pacer: Pacer, waiting: number): WatcherState {
    return {
      places: this.places,
      inWindow: window.count(now, "low"),
      waiting,
      backedOffForMs: this.outFor(now, pacer),
    };
  }
}
