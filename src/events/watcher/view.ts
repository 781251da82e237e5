/**
 * @module
 * The watcher as its tenant and the operator see it: what is polled, how often, and the detection
 * delay expected and measured. The watcher answers by it; the route's schema is it.
 */
import { z } from "zod";
import { MAX_PAGES } from "./poll";
import { plan, POLL_NAMES } from "./polls";

/** How a cycle ended: `capped` ran out of pages (the next goes on), the rest stopped early. */
export const CycleEnd = z.enum(["ok", "capped", "no-permit", "throttled", "failed"]);

export const WatcherView = z.strictObject({
  state: z.enum(["off", "watching"]).meta({
    description:
      "`watching` while an endpoint, enabled or disabled, takes a type the watcher can see (changes made elsewhere to customers, products, outgoing invoices); `off` otherwise.",
  }),
  polls: z.array(z.enum(POLL_NAMES)).meta({ description: "What each cycle polls, one call each." }),
  cycleSeconds: z.number().nullable().meta({ description: "How often the tenant is polled now." }),
  expectedDelaySeconds: z.number().nullable().meta({
    description: "The mean time from a change to its event, from the cadence: half a cycle.",
  }),
  worstDelaySeconds: z.number().nullable().meta({
    description: "The longest, from the cadence: a cycle (more while the budget is the callers').",
  }),
  measuredDelaySeconds: z.number().nullable().meta({
    description:
      "The longest delay among the changes the last cycle that found any recorded (null: none yet).",
  }),
  measuredAt: z.string().nullable(),
  maxCallsPerCycle: z.int().min(0).meta({
    description:
      "The most upstream calls one cycle may make: each poll at most `MAX_PAGES` (4) pages; more changed rows are read on next cycle.",
  }),
  lastCycle: z
    .strictObject({
      at: z.string(),
      calls: z.int().min(0),
      changes: z.int().min(0),
      outcome: CycleEnd,
    })
    .nullable(),
  nextCycleAt: z.string().nullable(),
});
export type WatcherView = z.output<typeof WatcherView>;

/** The view of a tenant that is not watched. */
export const OFF: WatcherView = {
  state: "off",
  polls: [],
  maxCallsPerCycle: 0,
  cycleSeconds: null,
  expectedDelaySeconds: null,
  worstDelaySeconds: null,
  measuredDelaySeconds: null,
  measuredAt: null,
  lastCycle: null,
  nextCycleAt: null,
};

/** A cycle, as the watcher's cycle log keeps it. */
export interface CycleSeen {
  startedAt: number;
  calls: number;
  changes: number;
  delayMs: number | null;
  outcome: z.output<typeof CycleEnd>;
}

export interface Watched {
  types: string[];
  cycleMs: number;
  nextAt: number | null;
}

const iso = (t: number | null | undefined) => (t == null ? null : new Date(t).toISOString());

/** The view of a watched tenant, from its last cycle and the last that found a change. */
export function viewOf(
  w: Watched,
  last: CycleSeen | null,
  measured: CycleSeen | null,
): WatcherView {
  const polls = plan(w.types).map((p) => p.poll);
  return {
    state: "watching",
    polls,
    maxCallsPerCycle: polls.length * MAX_PAGES,
    cycleSeconds: w.cycleMs / 1000,
    expectedDelaySeconds: w.cycleMs / 2000,
    worstDelaySeconds: w.cycleMs / 1000,
    measuredDelaySeconds: measured?.delayMs == null ? null : measured.delayMs / 1000,
    measuredAt: iso(measured?.startedAt),
    lastCycle: last && {
      at: new Date(last.startedAt).toISOString(),
      calls: last.calls,
      changes: last.changes,
      outcome: last.outcome,
    },
    nextCycleAt: iso(w.nextAt),
  };
}
