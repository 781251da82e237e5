/**
 * @module
 * Telling the rate governor when a call really left. The governor keeps every second at the API
 * within the limit by counting its grants (`upstream/rate/grant-window.ts`), which holds as long as
 * each call leaves within the transit margin (36.7 ms) of its permit. A busy isolate breaks that:
 * the permit's answer waits behind other work, and so does the request after `fetch` is called.
 * A trace of 100 orders at once (issue 27) found 4 of the run's 6 upstream 429s there: calls that
 * left 75–230 ms after their permit while the tenth call after them left on time, and the caller's
 * own isolate, asked right after `fetch`, came back as late as the call reached the sandbox.
 *
 * So right after handing a call to `fetch`, the caller yields once and looks at the clock: if it
 * got back more than `LATE_DEPARTURE_MS` after the grant, it reports the time to the governor,
 * which counts the permit from then, less the `LATE_DEPARTURE_MS` every call may leave late
 * unreported (`RateGovernor.departed`, `GrantWindow`). The tenth permit after a late call
 * then waits for the second that call really takes. The report is one RPC, only for late calls.
 */

/**
 * A call that its caller gets back to more than this long after the grant is reported, ms: well
 * inside the governor's transit margin (36.7 ms), so what goes unreported leaves the rest of it
 * for the way itself (7 ms at the 90th percentile, traced on the loaded 2-core machine).
 */
export const LATE_DEPARTURE_MS = 15;

/** Where a late departure is reported: the governor's `departed` (an RPC). */
export interface DepartureSink {
  departed(permit: number, at: number): unknown;
}

/** The clock and the yield of `watchDeparture`; tests pass their own. */
export interface DepartureClock {
  now(): number;
  /** Resolves once the isolate has run whatever was queued before it (a timer). */
  settle(): Promise<unknown>;
}

const REAL_CLOCK: DepartureClock = { now: () => Date.now(), settle: () => scheduler.wait(1) };

/**
 * Call right after handing the call of `permit` to `fetch`, without awaiting it (`leaving` does):
 * resolves to whether the call was reported as late. Never rejects (a lost report leaves the window
 * as it was).
 */
export async function watchDeparture(
  sink: DepartureSink,
  permit: { permit: number; grantedAt: number },
  clock: DepartureClock = REAL_CLOCK,
): Promise<boolean> {
  await clock.settle();
  const at = clock.now();
  if (at - permit.grantedAt <= LATE_DEPARTURE_MS) return false;
  try {
    await sink.departed(permit.permit, at);
  } catch {
    // Best effort: the governor keeps counting from the grant.
  }
  return true;
}

/**
 * `sending`, a call just handed to `fetch` under `permit`, with its departure watched: every call
 * under a permit goes through here, so the watch always starts right after the hand-over, where it
 * tells the time the call left.
 *
 * @example
 * const result = await leaving(governor, permit, exchange(env, url, init));
 */
export function leaving<T>(
  sink: DepartureSink,
  permit: { permit: number; grantedAt: number },
  sending: Promise<T>,
): Promise<T> {
  void watchDeparture(sink, permit);
  return sending;
}
