/** @module When a call really left, for the governor's window: docs/design/rate-governor.md. */

/** A call left later than this after its grant is reported, ms: well inside the transit margin. */
export const LATE_DEPARTURE_MS = 15;

export interface DepartureSink {
  departed(permit: number, at: number): unknown;
}

/** Tests pass their own. `settle` resolves once the isolate has run whatever was queued first. */
export interface DepartureClock {
  now(): number;
  settle(): Promise<unknown>;
}

const REAL_CLOCK: DepartureClock = { now: () => Date.now(), settle: () => scheduler.wait(1) };

/** Resolves to whether the call of `permit` was reported late; never rejects. See `leaving`. */
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
 * `sending`, just handed to `fetch`, with its departure watched from right after the hand-over.
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
