/**
 * A clock the tests move instead of waiting. The gateway's Durable Objects run in the tests'
 * isolate, so faking `Date` here is what they read too. Only `Date` is faked: I/O and timers run as
 * usual. Code that took `Date.now` itself before the fake (the token keeper's clock) keeps the real
 * one.
 */
import { vi } from "vitest";
import { control } from "./gateway";

/**
 * Moves the clock `ms` ahead and keeps it running from there, so work that waits on a real timer
 * and then compares with `Date` (the rate governor's queue) still comes due. A file that calls this
 * restores the clock with `afterEach(() => vi.useRealTimers())`.
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
  await control("POST", "/clock/skip", { ms }, 204);
}
