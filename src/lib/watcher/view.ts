/**
 * @module
 * The watcher as its tenant and the operator see it (`GET /events/endpoints`, the console's events
 * page): what is polled, how often, and how long a change made elsewhere takes to be seen:
 * expected from the cadence (half a cycle at the mean, a cycle at worst) and measured (the longest
 * delay among the changes the last finding cycle recorded). One definition: the watcher answers by
 * it, the route's strict schema is it.
 */
import { z } from "zod";
import { POLL_NAMES } from "./polls";

/** How a cycle ended: `capped` ran out of pages (the next goes on), the rest stopped early. */
export const CycleEnd = z.enum(["ok", "capped", "no-permit", "throttled", "failed"]);

/** The watcher's view. */
export const WatcherView = z.strictObject({
  state: z.enum(["off", "watching"]).meta({
    description:
      "`watching` while an enabled endpoint takes a type the watcher can see (changes made elsewhere to customers, products, outgoing invoices); `off` otherwise.",
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
  cycleSeconds: null,
  expectedDelaySeconds: null,
  worstDelaySeconds: null,
  measuredDelaySeconds: null,
  measuredAt: null,
  lastCycle: null,
  nextCycleAt: null,
};
