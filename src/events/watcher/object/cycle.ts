/**
 * @module
 * The polls of one cycle, in turn, each cursor stored after its events were recorded; the first
 * poll that stops stops the cycle, and the next goes on from the cursors.
 */
import { log } from "../../../kernel/log";
import { runPoll, type PollIo, type PollResult } from "../poll";
import type { PlannedPoll } from "../polls";
import type { Cursors } from "./cursors";
import type { CycleOutcome } from "./cycle-log";

export interface CycleRun {
  /** Upstream calls made. */
  calls: number;
  /** Events recorded new, each with its detection delay, ms. */
  delays: number[];
  outcome: CycleOutcome;
  /** The Retry-After of the 429 or the governor's refusal that stopped the cycle, s; else 0. */
  retryAfterSeconds: number;
}

/**
 * Runs `planned` in turn; null when `current()` turned false while a poll awaited. `doneSince`:
 * when a cycle stopped for want of a permit began; the polls it finished are skipped.
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

/** How soon at least a cycle refused a permit asks again, ms: it is owed the rest of its cycle. */
const NO_PERMIT_RETRY_MS = 5000;

/**
 * When the next cycle is due: a cycle after `started`, not before a 429's Retry-After; after a
 * refused permit, the governor's Retry-After (at least `NO_PERMIT_RETRY_MS`), within the cycle.
 */
export function nextCycleAt(started: number, cycleMs: number, run: CycleRun, now: number): number {
  const wait = run.retryAfterSeconds * 1000;
  if (run.outcome === "no-permit")
    return Math.min(started + cycleMs, now + Math.max(NO_PERMIT_RETRY_MS, wait));
  return Math.max(started + cycleMs, now + wait);
}
