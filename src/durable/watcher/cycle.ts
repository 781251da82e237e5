/**
 * @module
 * The polls of one cycle, in turn (`durable/watcher.ts` runs it from its alarm): each poll from its
 * stored cursor, its events recorded (inside `runPoll`) before its cursor is stored, so a cycle cut
 * short anywhere re-reads rows next cycle and skips none. The first poll that stops (no permit, a
 * 429, a failure) stops the cycle: the next cycle goes on from the cursors.
 */
import { log } from "../../lib/log";
import { runPoll, type PollIo, type PollResult } from "../../lib/watcher/poll";
import type { PlannedPoll } from "../../lib/watcher/polls";
import type { Cursors } from "./cursors";
import type { CycleOutcome } from "./cycle-log";

/** What a cycle's polls came to. */
export interface CycleRun {
  /** Upstream calls made. */
  calls: number;
  /** Events recorded new, each with its detection delay, ms. */
  delays: number[];
  outcome: CycleOutcome;
  /** The API's Retry-After when a 429 stopped the cycle, s; else 0. */
  retryAfterSeconds: number;
}

/**
 * Runs `planned` in turn; null when `current()` turned false while a poll awaited (what is watched
 * changed meanwhile: nothing of the old plan is written over the new).
 */
export async function pollAll(
  planned: readonly PlannedPoll[],
  cursors: Cursors,
  io: PollIo,
  current: () => boolean,
): Promise<CycleRun | null> {
  const run: CycleRun = { calls: 0, delays: [], outcome: "ok", retryAfterSeconds: 0 };
  for (const p of planned) {
    const cursor = cursors.get(p.poll);
    if (!cursor) continue;
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
