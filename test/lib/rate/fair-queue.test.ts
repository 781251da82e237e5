import { describe, expect, it } from "vitest";
import { FairQueue } from "../../../src/lib/rate/fair-queue";

/** The governor's settings: the API's 10 per second, counted over 1.2 s (see durable/rate-governor.ts). */
const LIMIT = 10;
const WINDOW_MS = 1200;
/** Long enough that no request in these tests hits its deadline unless the test means it to. */
const PATIENT_MS = 600_000;

const queue = () => new FairQueue<number>({ limit: LIMIT, windowMs: WINDOW_MS });

interface Arrival {
  at: number;
  tenant: string;
  maxWaitMs?: number;
}
interface Answer {
  id: number;
  at: number;
  tenant: string;
  ok: boolean;
  retryAfterSeconds?: number;
}

/**
 * Plays `arrivals` against `q` on a simulated clock, as the governor's timer would: the clock jumps
 * to the next arrival or to the queue's `wakeAt`, whichever is first. Returns every answer in order.
 */
function simulate(q: FairQueue<number>, arrivals: Arrival[]): Answer[] {
  const pending = [...arrivals].sort((a, b) => a.at - b.at);
  const answers: Answer[] = [];
  let wakeAt: number | null = null;
  let id = 0;
  for (;;) {
    const now = Math.min(pending[0]?.at ?? Infinity, wakeAt ?? Infinity);
    if (now === Infinity) return answers;
    for (let a = pending[0]; a !== undefined && a.at === now; a = pending[0]) {
      pending.shift();
      const offer = q.offer(a.tenant, a.maxWaitMs ?? PATIENT_MS, now, id);
      if (offer.outcome === "granted") answers.push({ id, at: now, tenant: a.tenant, ok: true });
      if (offer.outcome === "refused") answers.push({ id, at: now, tenant: a.tenant, ok: false, retryAfterSeconds: offer.retryAfterSeconds });
      id++;
    }
    const drained = q.drain(now);
    for (const r of drained.refused) answers.push({ id: r.ticket, at: now, tenant: r.tenant, ok: false, retryAfterSeconds: r.retryAfterSeconds });
    for (const g of drained.granted) answers.push({ id: g.ticket, at: now, tenant: g.tenant, ok: true });
    wakeAt = drained.wakeAt;
  }
}

/** The most grants found in any window of `WINDOW_MS` (half-open, as the queue counts it). */
function busiestWindow(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[j] ?? Infinity) < (sorted[i] ?? 0) + WINDOW_MS) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

const burst = (n: number, tenant: string, at = 0, maxWaitMs = PATIENT_MS): Arrival[] => Array.from({ length: n }, () => ({ at, tenant, maxWaitMs }));

describe("fair queue: the limit", () => {
  it("grants at once while the window has room and nobody waits", () => {
    const q = queue();
    const offers = Array.from({ length: LIMIT + 1 }, (_, i) => q.offer("a", PATIENT_MS, 0, i).outcome);
    expect(offers).toEqual([...Array<string>(LIMIT).fill("granted"), "queued"]);
    expect(q.counters()).toEqual({ a: { permits: LIMIT, waited: 1, refused: 0 } });
  });

  it("never grants more than the limit in any window, whatever the arrival pattern", () => {
    const arrivals = [
      ...burst(200, "a"),
      ...Array.from({ length: 90 }, (_, i) => ({ at: (i * 377) % 9000, tenant: `t${i % 3}` })),
      ...burst(30, "b", 4321),
    ];
    const answers = simulate(queue(), arrivals);
    expect(answers).toHaveLength(arrivals.length);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(busiestWindow(answers.map((a) => a.at))).toBe(LIMIT);
  });

  it("frees each permit exactly one window after it was granted", () => {
    const answers = simulate(queue(), burst(3 * LIMIT, "a"));
    expect(answers.map((a) => a.at)).toEqual([0, WINDOW_MS, 2 * WINDOW_MS].flatMap((t) => Array<number>(LIMIT).fill(t)));
  });

  it("rejects a limit or window that is not a positive integer", () => {
    expect(() => new FairQueue({ limit: 0, windowMs: WINDOW_MS })).toThrow(TypeError);
    expect(() => new FairQueue({ limit: LIMIT, windowMs: 1.5 })).toThrow(TypeError);
  });
});

describe("fair queue: fairness", () => {
  it("serves two queued tenants in turn: B's 5 calls behind A's 200 are all among the first 10 grants after they arrive", () => {
    const answers = simulate(queue(), [...burst(200, "a"), ...burst(5, "b", 300)]);
    const afterB = answers.filter((a) => a.at >= 300 && a.ok);
    const bTurns = afterB.flatMap((a, i) => (a.tenant === "b" ? [i] : []));
    expect(bTurns).toEqual([1, 3, 5, 7, 9]);
    expect(answers.filter((a) => a.tenant === "a" && a.ok)).toHaveLength(200);
  });

  it("serves three tenants round-robin, one permit each per turn", () => {
    const answers = simulate(queue(), [...burst(LIMIT, "fill"), ...burst(4, "a", 1), ...burst(4, "b", 2), ...burst(4, "c", 3)]);
    expect(answers.filter((a) => a.tenant !== "fill").map((a) => a.tenant).join("")).toBe("abcabcabcabc");
  });

  it("keeps each tenant's own calls in arrival order", () => {
    const answers = simulate(queue(), [...burst(25, "a"), ...burst(25, "b")]);
    for (const t of ["a", "b"]) {
      const ids = answers.filter((a) => a.tenant === t).map((a) => a.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }
  });
});

describe("fair queue: deadlines", () => {
  it("refuses at once, with a Retry-After of at least 1 s, a call whose estimated wait passes its deadline", () => {
    const q = queue();
    for (let i = 0; i < 2 * LIMIT; i++) q.offer("a", PATIENT_MS, 0, i);
    const offer = q.offer("a", 500, 100, 99);
    expect(offer).toEqual({ outcome: "refused", retryAfterSeconds: expect.any(Number) });
    expect(offer.outcome === "refused" && offer.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(q.waiting).toBe(LIMIT);
    expect(q.counters().a).toEqual({ permits: LIMIT, waited: LIMIT, refused: 1 });
  });

  it("queues a call whose estimated wait is within its deadline, and grants it in time", () => {
    const answers = simulate(queue(), [...burst(LIMIT, "a"), { at: 100, tenant: "b", maxWaitMs: WINDOW_MS }]);
    expect(answers.at(-1)).toEqual({ id: LIMIT, at: WINDOW_MS, tenant: "b", ok: true });
  });

  it("refuses a queued call when a pause pushes its turn past its deadline", () => {
    const q = queue();
    for (let i = 0; i < LIMIT; i++) q.offer("a", PATIENT_MS, 0, i);
    expect(q.offer("b", 1500, 0, 42).outcome).toBe("queued");
    q.pause(5, 100);
    expect(q.drain(100)).toEqual({ granted: [], refused: [], wakeAt: 1500 });
    expect(q.drain(1500)).toEqual({ granted: [], refused: [{ tenant: "b", ticket: 42, retryAfterSeconds: 4 }], wakeAt: null });
    expect(q.counters().b).toEqual({ permits: 0, waited: 1, refused: 1 });
  });
});

describe("fair queue: pauses", () => {
  it("holds every grant until the pause ends, then resumes at the limit", () => {
    const q = queue();
    q.pause(2, 0);
    expect(q.offer("a", PATIENT_MS, 0, 0).outcome).toBe("queued");
    const answers = simulate(q, burst(2 * LIMIT, "b", 10));
    expect(Math.min(...answers.map((a) => a.at))).toBe(2000);
    expect(answers.filter((a) => a.at === 2000).map((a) => a.tenant)).toEqual(["a", ...Array<string>(LIMIT - 1).fill("b")]);
    expect(answers).toHaveLength(2 * LIMIT + 1);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(busiestWindow(answers.map((a) => a.at))).toBe(LIMIT);
  });

  it("refuses at once a call that cannot wait for the pause to end", () => {
    const q = queue();
    q.pause(3, 0);
    expect(q.offer("a", 1000, 0, 0)).toEqual({ outcome: "refused", retryAfterSeconds: 3 });
  });

  it("never lets a shorter pause cut a longer one short", () => {
    const q = queue();
    q.pause(5, 0);
    q.pause(1, 1000);
    expect(q.estimateWait("a", 1000)).toBe(4000);
  });
});
