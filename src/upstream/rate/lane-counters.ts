/**
 * @module
 * The governor's counters, kept per lane (`lanes.ts`) and read per lane or per tenant: the
 * operator's tenant list (`GET /admin/tenants`) shows a tenant's first class (its callers and its
 * assistant) as before lanes; the watcher's own refusals, routine (it polls again next cycle),
 * would read there as callers turned away, so they are only counted under its lane.
 */
import { splitLaneKey } from "./lanes";

/** Counters of a tenant or a lane: permits granted, requests that had to queue, requests refused. */
export interface TenantCounters {
  permits: number;
  waited: number;
  refused: number;
}

/**
 * Counters per lane key.
 *
 * @example
 * const c = new LaneCounters();
 * c.of("demo:acme#assistant").permits++;
 * c.byTenant(); // { "demo:acme": { permits: 1, waited: 0, refused: 0 } }
 */
export class LaneCounters {
  #byLane = new Map<string, TenantCounters>();

  /** The counters of lane `key`, made at zero the first time. */
  of(key: string): TenantCounters {
    let c = this.#byLane.get(key);
    if (!c) this.#byLane.set(key, (c = { permits: 0, waited: 0, refused: 0 }));
    return c;
  }

  /** Per lane key, the watcher's included. */
  byLane(): Record<string, TenantCounters> {
    return Object.fromEntries([...this.#byLane].map(([key, c]) => [key, { ...c }]));
  }

  /** Per tenant, its first-class lanes summed (the watcher's left out). */
  byTenant(): Record<string, TenantCounters> {
    const out: Record<string, TenantCounters> = {};
    for (const [key, c] of this.#byLane) {
      const { tenant, lane } = splitLaneKey(key);
      if (lane === "watcher") continue;
      const sum = (out[tenant] ??= { permits: 0, waited: 0, refused: 0 });
      sum.permits += c.permits;
      sum.waited += c.waited;
      sum.refused += c.refused;
    }
    return out;
  }
}
