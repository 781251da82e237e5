/**
 * A clock the tests move instead of waiting. The gateway's Durable Objects run in the tests'
 * isolate, so faking `Date` here is what they read too. Only `Date` is faked: I/O and timers run as
 * usual. Code that took `Date.now` itself before the fake (the token keeper's clock) keeps the real
 * one.
 */
import { vi } from "vitest";

/**
 * Moves the clock `ms` ahead and keeps it running from there, so work that waits on a real timer
 * and then compares with `Date` (the rate governor's queue) still comes due. A file that calls this
 * restores the clock with `afterEach(() => vi.useRealTimers())`.
 */
export function skipAhead(ms: number): void {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + ms);
}
