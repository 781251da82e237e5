/**
 * A clock the tests move instead of waiting. The gateway's Durable Objects run in the tests'
 * isolate, so faking `Date` here is what they read too. Only `Date` is faked: I/O and timers run as
 * usual. Code that took `Date.now` itself before the fake (the token keeper's clock) keeps the real
 * one.
 */
import { vi } from "vitest";
import { control, evictGovernor } from "./gateway";

/** Whether `skipAhead` moved the clock since the last `restoreClock`. */
let skipped = false;

/**
 * Moves the clock `ms` ahead and keeps it running from there, so work that waits on a real timer
 * and then compares with `Date` (the rate governor's queue) still comes due. A file that calls this
 * restores the clock with `afterEach(restoreClock)`.
 *
 * The sandbox's rate limit moves with it (`POST /_sandbox/clock/skip`). The sandbox is another
 * Worker, on real time: without this, the governor would take its last second's grants as `ms`
 * older while the sandbox still counts them in its second, and a burst the governor then grants
 * into what it sees as a free second would draw 429s the real API, whose second passes with the
 * gateway's, never sends. Both limits count the same second, so a test that skips still proves
 * that the gateway keeps to the sandbox's 10 calls a second.
 */
export async function skipAhead(ms: number): Promise<void> {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + ms);
  skipped = true;
  await control("POST", "/clock/skip", { ms }, 204);
}

/**
 * Back to the real clock, which lies behind a skipped one. After a skip, the rate governors are
 * evicted too: they keep their grants and pace in memory, stamped on the skipped clock, and back
 * on the real one those would lie in their future, holding the window full (and the next permit
 * due) until real time caught up, for as long as was skipped.
 */
export async function restoreClock(): Promise<void> {
  vi.useRealTimers();
  if (!skipped) return;
  skipped = false;
  await evictGovernor("demo");
  await evictGovernor("production");
}
