/**
 * A driven clock for `FairQueue`: plays arrivals as the governor's timer would and counts the API's
 * rolling second. Shared by the queue's tests; not a test file itself.
 */
import type { FairQueue } from "../../../src/lib/rate/fair-queue";

/** Long enough that no request in these tests hits its deadline unless the test means it to. */
export const PATIENT_MS = 600_000;

export interface Arrival {
  at: number;
  tenant: string;
  maxWaitMs?: number;
}
export interface Answer {
  id: number;
  at: number;
  tenant: string;
  ok: boolean;
  retryAfterSeconds?: number;
  /** The permit's number, for a grant. */
  permit?: number;
}

/**
 * Plays `arrivals` against `q` on a simulated clock, as the governor's timer would (a punctual
 * one): the clock jumps to the next arrival or to the queue's `wakeAt`, whichever is first, and
 * `at(now)` runs first at each step (a 429 arriving, say). Returns every answer in order.
 */
export function simulate(
  q: FairQueue<number>,
  arrivals: Arrival[],
  at: (now: number, answers: Answer[]) => void = () => {},
): Answer[] {
  const pending = [...arrivals].sort((a, b) => a.at - b.at);
  const answers: Answer[] = [];
  let wakeAt: number | null = null;
  let id = 0;
  for (;;) {
    const now = Math.min(pending[0]?.at ?? Infinity, wakeAt ?? Infinity);
    if (now === Infinity) return answers;
    at(now, answers);
    for (let a = pending[0]; a !== undefined && a.at === now; a = pending[0]) {
      pending.shift();
      const offer = q.offer(a.tenant, a.maxWaitMs ?? PATIENT_MS, now, id);
      if (offer.outcome === "granted")
        answers.push({ id, at: now, tenant: a.tenant, ok: true, permit: offer.permit });
      if (offer.outcome === "refused")
        answers.push({
          id,
          at: now,
          tenant: a.tenant,
          ok: false,
          retryAfterSeconds: offer.retryAfterSeconds,
        });
      id++;
    }
    const drained = q.drain(now);
    for (const r of drained.refused)
      answers.push({
        id: r.ticket,
        at: now,
        tenant: r.tenant,
        ok: false,
        retryAfterSeconds: r.retryAfterSeconds,
      });
    for (const g of drained.granted)
      answers.push({ id: g.ticket, at: now, tenant: g.tenant, ok: true, permit: g.permit });
    wakeAt = drained.wakeAt;
  }
}

/**
 * The most grants in any rolling window of `spanMs` (1000: the API's second), counted as the API
 * counts: (t − spanMs, t].
 */
export function busiestSecond(times: number[], spanMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[j] ?? 0) + spanMs <= (sorted[i] ?? 0)) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
