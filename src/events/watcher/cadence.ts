/**
 * @module
 * How often each tenant is polled (pure): the watchers of one environment share `share` of its
 * limit (two calls a second of the API's ten by default), and each cycle of a tenant costs one
 * call per poll while nothing changed. Recently active tenants (a write, a delivery, a change found
 * in the last `ACTIVE_WINDOW_MS`) come first: an idle tenant is polled `IDLE_FACTOR` times less
 * often, so the budget goes where changes are likely. With `A` the polls per cycle of the active
 * tenants summed, `I` those of the idle ones, `B = share × limit` calls a second:
 *
 *     active cycle = max(floor, (A + I / IDLE_FACTOR) / B)
 *     idle cycle   = max(floor, IDLE_FACTOR × (A + I / IDLE_FACTOR) / B)
 *
 * which spends at most `B` a second in all (each tenant's polls over its cycle, summed). With 20
 * active tenants of 4 polls, the defaults give 40 s (a change is seen 20 s after it at the mean,
 * 40 s at worst); 100 give 200 s; 150, 300 s. Pages beyond the first (a burst of changes) and
 * token renewals come on top; the governor's cap on the watchers' permits keeps those within the
 * share too: a cycle that finds no permit in time stops and goes on next cycle.
 */

/** How long a tenant counts as active after a write, a delivery or a change found, ms: an hour. */
export const ACTIVE_WINDOW_MS = 60 * 60 * 1000;
/** How many times less often an idle tenant is polled than an active one. */
export const IDLE_FACTOR = 4;
/**
 * The cycle while the watchers' share is 0 (`WATCHER_BUDGET_SHARE=0`: polling off), ms: an hour.
 * The governor grants them nothing then; each cycle only asks again, at no upstream cost.
 */
export const PAUSED_CYCLE_MS = 60 * 60 * 1000;

/** One watched tenant, as the cadence sees it. */
export interface Watched {
  /** Calls a cycle while nothing changed: its polls. */
  cost: number;
  active: boolean;
}

/** The environment's budget for the watchers. */
export interface Budget {
  /** The API's limit, calls a second. */
  limitPerSecond: number;
  /** The watchers' share of it, 0 ≤ share ≤ 1 (0: polling off). */
  share: number;
  /** The shortest cycle, ms. */
  floorMs: number;
}

/**
 * The cycles of `watched` tenants under `budget`, ms: an active tenant's and an idle one's.
 *
 * @example cycles({ limitPerSecond: 10, share: 0.2, floorMs: 30_000 }, Array(20).fill({ cost: 4, active: true })).active // 40_000
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

/** The shortest wait of a poll for its turn, ms (a tenant alone, on an idle key, waits far less). */
export const MIN_TURN_WAIT_MS = 2000;
/**
 * The longest wait of a poll for its turn, ms: a cycle of 4 polls then waits at most 8 minutes,
 * well inside the 15 minutes an alarm may run.
 */
export const MAX_TURN_WAIT_MS = 120_000;

/**
 * How long a poll of a tenant whose cycle is `cycleMs` waits in the governor's watcher lane for its
 * turn, ms: its cycle, within [`MIN_TURN_WAIT_MS`, `MAX_TURN_WAIT_MS`].
 *
 * Why a cycle: the watchers queue one poll each, served round-robin, `places` a window (2 of the 10
 * at the default share), so with N tenants queued a poll's turn comes within about N / places
 * windows, N × 0.52 s; the cadence gives N tenants of at least one poll a cycle of at least
 * N / (limit × share) = N × 0.5 s, so in the steady state a poll is served within its cycle. A poll
 * that would wait longer (callers take the room, or the roster's count lags) is refused and asks
 * again after the governor's Retry-After. Waiting in turn costs no upstream call; a 2 s wait, as
 * before, refused more often than it served at 100 tenants (14,825 asks for 1,168 calls in
 * `npm run bench -- watcher`), each refusal an RPC and a request-log row, and the refused asked
 * again at random, so a tenant's polls came unevenly.
 *
 * @example turnWaitMs(200_000) // 120_000
 */
export function turnWaitMs(cycleMs: number): number {
  return Math.min(MAX_TURN_WAIT_MS, Math.max(MIN_TURN_WAIT_MS, cycleMs));
}
