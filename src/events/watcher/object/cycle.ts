/**
 * @module
 * The polls of one cycle, in turn (`events/watcher/watcher-object.ts` runs it from its alarm): each
 * poll from its stored cursor, its events recorded (inside `runPoll`) before its cursor is stored,
 * so a cycle cut short anywhere re-reads rows next cycle and skips none. The first poll that stops
 * (no permit, a 429, a failure) stops the cycle: the next cycle goes on from the cursors.
 */
import { log } from "../../../kernel/log";
import { runPoll, type PollIo, type PollResult } from "../poll";
import type { PlannedPoll } from "../polls";
import type { Cursors } from "./cursors";
import type { CycleOutcome } from "./cycle-log";

/** What a cycle's polls came to. */
export interface CycleRun {
  /** Upstream calls made. */
  calls: number;
  /** Events recorded new, each with its detection delay, ms. */
  delays: number[];
  outcome: CycleOutcome;
  /** The Retry-After of the API's 429 or the governor's refusal that stopped the cycle, s; else 0. */
  retryAfterSeconds: number;
}

/**
 * Runs `planned` in turn; null when `current()` turned false while a poll awaited (what is watched
 * changed meanwhile: nothing of the old plan is written over the new). `doneSince`: a cycle stopped
 * for want of a permit began then, and this one finishes it: the polls it stored a cursor for
 * since, and read to the end, are not read again.
 */
export async function pollAll(
  planned: readonly PlannedPoll[],
  cursors: Cursors,
  io: PollIo,
  current: () => boolean,
  doneSince: number | null,
): Promise<CycleRun | null> {
  const run: CycleRun = { calls: 0, delays: [], outcome: "ok", retryAfterSeconds: 0 };
  for (const p of planned) {
    const cursor = cursors.get(p.poll);
    if (!cursor) continue;
    // Done in the stopped cycle: stored since it began, nothing left to read (`resume` null).
    const done = doneSince !== null && (cursors.storedAt(p.poll) ?? 0) >= doneSince;
    if (done && cursor.resume === null) continue;
    const result = await pollOnce(p, cursor, io);
    if (!current()) return null;
    cursors.put(p.poll, result.cursor, Date.now());
    run.calls += result.calls;
    run.delays.push(...result.delays);
    if (result.outcome === "capped") run.outcome = "capped";
    else if (result.outcome !== "done") {
      run.outcome = result.outcome.stopped;
      run.retryAfterSeconds = result.outcome.retryAfterSeconds ?? 0;
      break;
    }
  }
  return run;
}

/** Runs one poll; a failure (the events object, a bug) stops it where it stood. */
async function pollOnce(
  p: PlannedPoll,
  cursor: PollResult["cursor"],
  io: PollIo,
): Promise<PollResult> {
  try {
    return await runPoll(p, cursor, io);
  } catch (e) {
    log.warn("watcher-poll-failed", { poll: p.poll, error: String(e) });
    return { cursor, calls: 0, delays: [], outcome: { stopped: "failed" } };
  }
}

/**
 * How soon a cycle that stopped for want of a permit asks again at least, ms. It is owed the rest
 * of its cycle (the governor refused it for callers' traffic, not for its share), and asking
 * costs no upstream call; the governor's Retry-After, when longer, is kept.
 */
const NO_PERMIT_RETRY_MS = 5000;

/**
 * When the cycle after one that began at `started` is due: a cycle later; after a 429 not before
 * its Retry-After; after a refused permit, after the governor's Retry-After (at least
 * `NO_PERMIT_RETRY_MS`), within the cycle.
 */
export function nextCycleAt(started: number, cycleMs: number, run: CycleRun, now: number): number {
  const wait = run.retryAfterSeconds * 1000;
  if (run.outcome === "no-permit")
    return Math.min(started + cycleMs, now + Math.max(NO_PERMIT_RETRY_MS, wait));
  return Math.max(started + cycleMs, now + wait);
}
