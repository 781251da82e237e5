/**
 * @module
 * How often each tenant is polled (pure): the watchers of an environment share `share × limit`
 * calls a second, an idle tenant polled `IDLE_FACTOR` times less often than an active one, and the
 * cycles spend at most that share in all. The formula, its numbers and the turn's wait:
 * docs/design/events.md.
 */

/** How long a tenant counts as active after a write, a delivery or a change found, ms: an hour. */
export const ACTIVE_WINDOW_MS = 60 * 60 * 1000;
/** How many times less often an idle tenant is polled than an active one. */
export const IDLE_FACTOR = 4;
/** The cycle while the watchers' share is 0 (polling off), ms: a cycle then only asks again. */
export const PAUSED_CYCLE_MS = 60 * 60 * 1000;

export interface Watched {
  /** Calls a cycle while nothing changed: its polls. */
  cost: number;
  active: boolean;
}

export interface Budget {
  /** The API's limit, calls a second. */
  limitPerSecond: number;
  /** The watchers' share of it, 0 ≤ share ≤ 1 (0: polling off). */
  share: number;
  floorMs: number;
}

/**
 * The cycles of `watched` tenants under `budget`, ms: an active tenant's and an idle one's.
 *
 * @example
 * const twenty = Array(20).fill({ cost: 4, active: true });
 * cycles({ limitPerSecond: 10, share: 0.2, floorMs: 30_000 }, twenty).active // 40_000
 */
export function cycles(
  budget: Budget,
  watched: readonly Watched[],
): { active: number; idle: number } {
  const perSecond = budget.limitPerSecond * budget.share;
  if (!(perSecond > 0)) {
    const paused = Math.max(budget.floorMs, PAUSED_CYCLE_MS);
    return { active: paused, idle: paused };
  }
  const weighted = watched.reduce((n, w) => n + (w.active ? w.cost : w.cost / IDLE_FACTOR), 0);
  const base = (weighted / perSecond) * 1000;
  return {
    active: Math.max(budget.floorMs, Math.ceil(base)),
    idle: Math.max(budget.floorMs, Math.ceil(IDLE_FACTOR * base)),
  };
}

/** Whether a tenant last active at `activeAt` (epoch ms, null: never) is active `now`. */
export function isActive(activeAt: number | null, now: number): boolean {
  return activeAt !== null && now - activeAt < ACTIVE_WINDOW_MS;
}

/** The shortest wait of a poll for its turn, ms. */
export const MIN_TURN_WAIT_MS = 2000;
/** The longest wait of a poll for its turn, ms: 4 polls wait within an alarm's 15 minutes. */
export const MAX_TURN_WAIT_MS = 120_000;

/**
 * How long a poll waits in the governor's watcher lane for its turn, ms: its tenant's cycle, in
 * which the round-robin serves it in the steady state, within the bounds above.
 *
 * @example turnWaitMs(200_000) // 120_000
 */
export function turnWaitMs(cycleMs: number): number {
  return Math.min(MAX_TURN_WAIT_MS, Math.max(MIN_TURN_WAIT_MS, cycleMs));
}
