/**
 * @module The governor's counters, kept per lane (`lanes.ts`) and read per lane or per tenant. A
 * tenant's sum leaves the watcher out: its routine refusals would read as callers turned away.
 */
import { splitLaneKey } from "./lanes";

export interface TenantCounters {
  permits: number;
  waited: number;
  refused: number;
}

/**
 * @example
 * c.of("demo:acme#assistant").permits++;
 * c.byTenant(); // { "demo:acme": { permits: 1, waited: 0, refused: 0 } }
 */
export class LaneCounters {
  #byLane = new Map<string, TenantCounters>();

  of(key: string): TenantCounters {
    let c = this.#byLane.get(key);
    if (!c) this.#byLane.set(key, (c = { permits: 0, waited: 0, refused: 0 }));
    return c;
  }

  byLane(): Record<string, TenantCounters> {
    return Object.fromEntries([...this.#byLane].map(([key, c]) => [key, { ...c }]));
  }

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
