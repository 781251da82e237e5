/**
 * @module
 * `RateGovernor`: one per environment, that is one per subscription key. The API allows 10 requests
 * a second per subscription key across all clients, so every upstream call (token requests too)
 * takes a permit here first.
 *
 * Fairness: waiting callers are queued per tenant and served round-robin, one permit per tenant per
 * turn, so one tenant's bulk job cannot starve another tenant's single invoice.
 * Deadlines: a caller says how long it may wait; if its estimated turn lies beyond that, it is
 * refused at once with a Retry-After instead of being queued to fail later.
 * 429s: when the API still answers 429 (another system spending the same key, say), the whole
 * environment pauses for the Retry-After, because the key is shared by all tenants alike.
 */
import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../lib/config";

/**
 * The window the limit counts over, ms: the API's second plus a margin, because a permit granted
 * here reaches the API a little later, and jitter on the way must not put 11 calls in its second.
 * 100 ms let 3 of 600 calls through to a 429 under a 200 req/s load on a saturated 2-core machine
 * (npm run bench); 200 ms costs a sixth of the throughput and buys that margin.
 */
const WINDOW_MS = 1200;
/** The API's limit per subscription key, per second. */
const DEFAULT_LIMIT = 10;

interface Waiter {
  deadline: number;
  resolve: (r: Permit) => void;
}

/** The answer to `acquire`. */
export type Permit = { ok: true; waitedMs: number } | { ok: false; retryAfterSeconds: number };

/** Per-tenant counters. */
export interface GovernorCounters {
  permits: number;
  waited: number;
  refused: number;
}

export class RateGovernor extends DurableObject<Bindings> {
  #granted: number[] = [];
  #queues = new Map<string, Waiter[]>();
  /** Tenants with waiters, in serving order; the head is served next. */
  #ring: string[] = [];
  #pausedUntil = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #counters = new Map<string, GovernorCounters>();

  get #limit(): number {
    const n = Number(this.env.RATE_LIMIT_PER_SECOND);
    return Number.isInteger(n) && n > 0 ? n : DEFAULT_LIMIT;
  }

  /** Waits for a permit for `tenant`, at most `maxWaitMs`. */
  acquire(tenant: string, maxWaitMs: number): Promise<Permit> {
    const now = Date.now();
    const counters = this.#countersOf(tenant);
    this.#prune(now);
    if (this.#ring.length === 0 && now >= this.#pausedUntil && this.#granted.length < this.#limit) {
      this.#granted.push(now);
      counters.permits++;
      return Promise.resolve({ ok: true, waitedMs: 0 });
    }
    const estimate = this.#estimateWait(tenant, now);
    if (estimate > maxWaitMs) {
      counters.refused++;
      return Promise.resolve({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil(estimate / 1000)) });
    }
    counters.waited++;
    return new Promise<Permit>((resolve) => {
      const queue = this.#queues.get(tenant) ?? [];
      if (queue.length === 0) this.#ring.push(tenant);
      queue.push({ deadline: now + maxWaitMs, resolve: (p) => resolve(p.ok ? { ok: true, waitedMs: Date.now() - now } : p) });
      this.#queues.set(tenant, queue);
      this.#pump();
    });
  }

  /** Stops all permits of this environment for `seconds` (the API answered 429). */
  pause(seconds: number): void {
    const until = Date.now() + Math.max(1, seconds) * 1000;
    if (until > this.#pausedUntil) this.#pausedUntil = until;
    this.#pump();
  }

  /** Counters per tenant since this object started. */
  counters(): Record<string, GovernorCounters> {
    return Object.fromEntries(this.#counters);
  }

  #countersOf(tenant: string): GovernorCounters {
    let c = this.#counters.get(tenant);
    if (!c) this.#counters.set(tenant, (c = { permits: 0, waited: 0, refused: 0 }));
    return c;
  }

  #prune(now: number): void {
    while (this.#granted.length > 0 && (this.#granted[0] ?? 0) <= now - WINDOW_MS) this.#granted.shift();
  }

  /**
   * Estimated wait of a new waiter: the permits served before it under round-robin (its own queue,
   * plus at most one more than that from every other tenant), spread over the windows to come.
   */
  #estimateWait(tenant: string, now: number): number {
    const mine = this.#queues.get(tenant)?.length ?? 0;
    let ahead = mine;
    for (const [other, q] of this.#queues) if (other !== tenant) ahead += Math.min(q.length, mine + 1);
    const free = this.#limit - this.#granted.length;
    const start = Math.max(0, this.#pausedUntil - now);
    if (ahead < free) return start;
    const oldest = this.#granted[0] ?? now;
    const firstFree = Math.max(0, oldest + WINDOW_MS - now);
    return Math.max(start, firstFree) + Math.floor((ahead - free) / this.#limit) * WINDOW_MS;
  }

  /** Hands out every permit the window allows, round-robin, and sleeps until the next one frees. */
  #pump(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const now = Date.now();
    this.#prune(now);
    this.#expire(now);
    while (this.#ring.length > 0 && now >= this.#pausedUntil && this.#granted.length < this.#limit) {
      const tenant = this.#ring.shift() as string;
      const queue = this.#queues.get(tenant) ?? [];
      const waiter = queue.shift();
      if (queue.length > 0) this.#ring.push(tenant);
      else this.#queues.delete(tenant);
      if (!waiter) continue;
      this.#granted.push(now);
      this.#countersOf(tenant).permits++;
      waiter.resolve({ ok: true, waitedMs: 0 });
    }
    if (this.#ring.length === 0) return;
    const oldest = this.#granted[0];
    const next = Math.max(this.#pausedUntil, oldest === undefined ? now : oldest + WINDOW_MS);
    const soonestDeadline = Math.min(...[...this.#queues.values()].flatMap((q) => q.map((w) => w.deadline)));
    this.#timer = setTimeout(() => this.#pump(), Math.max(1, Math.min(next, soonestDeadline) - now));
  }

  /** Refuses waiters whose deadline has passed (a pause can push their turn out of reach). */
  #expire(now: number): void {
    for (const [tenant, queue] of this.#queues) {
      const keep = queue.filter((w) => {
        if (w.deadline > now) return true;
        this.#countersOf(tenant).refused++;
        w.resolve({ ok: false, retryAfterSeconds: Math.max(1, Math.ceil((this.#pausedUntil - now) / 1000)) });
        return false;
      });
      if (keep.length > 0) this.#queues.set(tenant, keep);
      else {
        this.#queues.delete(tenant);
        this.#ring = this.#ring.filter((t) => t !== tenant);
      }
    }
  }
}
