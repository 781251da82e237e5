/**
 * @module
 * The policy of the rate governor, without timers or promises: a sliding-window limit shared by all
 * tenants of one environment, per-tenant queues served round-robin, deadlines, and pauses. Every
 * method takes the current time as an argument (epoch ms), so tests drive the clock themselves and
 * assert on counts and order; `durable/rate-governor.ts` keeps the timer and resolves the promises.
 *
 * Fairness: waiting callers are queued per tenant and served round-robin, one permit per tenant per
 * turn, so one tenant's bulk job cannot starve another tenant's single invoice.
 * Deadlines: a caller says how long it may wait; if its estimated turn lies beyond that, it is
 * refused at once with a Retry-After instead of being queued to fail later.
 * Pauses: after a 429 the whole environment stops for the Retry-After, because the key (and so
 * the limit) is shared by all tenants alike.
 */

/** Per-tenant counters: permits granted, callers that had to queue, callers refused. */
export interface TenantCounters {
  permits: number;
  waited: number;
  refused: number;
}

/** The limit: at most `limit` grants in any `windowMs` ms. */
export interface FairQueueOptions {
  limit: number;
  windowMs: number;
}

/** What `offer` decided: a permit now, a place in the queue, or a refusal with a Retry-After. */
export type Offer = { outcome: "granted" } | { outcome: "queued" } | { outcome: "refused"; retryAfterSeconds: number };

/** What `drain` decided for queued callers, and when it must be called again (null: nothing waits). */
export interface Drain<T> {
  granted: { tenant: string; ticket: T; waitedMs: number }[];
  refused: { tenant: string; ticket: T; retryAfterSeconds: number }[];
  wakeAt: number | null;
}

interface Waiter<T> {
  ticket: T;
  since: number;
  deadline: number;
}

/** Whole seconds for a Retry-After: at least 1, since 0 invites an immediate retry into the same wait. */
const retryAfter = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Permits under a shared limit, served fairly between tenants. `T` is whatever the caller needs to
 * answer a queued request later (the governor keeps a promise's resolve function).
 *
 * @see durable/rate-governor.ts, the shell that keeps its timer.
 * @example
 * const q = new FairQueue<string>({ limit: 10, windowMs: 1200 });
 * q.offer("demo:acme", 5000, now, "call-1"); // { outcome: "granted" } while the window has room
 * const { granted, wakeAt } = q.drain(now);   // call again at wakeAt
 */
export class FairQueue<T> {
  readonly #limit: number;
  readonly #windowMs: number;
  /** Times of the grants still inside the window, oldest first. */
  #granted: number[] = [];
  #queues = new Map<string, Waiter<T>[]>();
  /** Tenants with waiters, in serving order; the head is served next. */
  #ring: string[] = [];
  #pausedUntil = 0;
  #counters = new Map<string, TenantCounters>();

  /** @throws TypeError when the limit or window is not a positive integer. */
  constructor(options: FairQueueOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) throw new TypeError(`FairQueue: limit must be a positive integer, got ${options.limit}`);
    if (!Number.isInteger(options.windowMs) || options.windowMs < 1) throw new TypeError(`FairQueue: windowMs must be a positive integer, got ${options.windowMs}`);
    this.#limit = options.limit;
    this.#windowMs = options.windowMs;
  }

  /**
   * A request of `tenant` that may wait `maxWaitMs`: granted at once when nobody waits and the
   * window has room; refused when its estimated turn is later than that; queued otherwise (call
   * `drain` next, then at its `wakeAt`).
   */
  offer(tenant: string, maxWaitMs: number, now: number, ticket: T): Offer {
    const counters = this.#countersOf(tenant);
    this.#prune(now);
    if (this.#ring.length === 0 && now >= this.#pausedUntil && this.#granted.length < this.#limit) {
      this.#granted.push(now);
      counters.permits++;
      return { outcome: "granted" };
    }
    const estimate = this.estimateWait(tenant, now);
    if (estimate > maxWaitMs) {
      counters.refused++;
      return { outcome: "refused", retryAfterSeconds: retryAfter(estimate) };
    }
    counters.waited++;
    const queue = this.#queues.get(tenant) ?? [];
    if (queue.length === 0) this.#ring.push(tenant);
    queue.push({ ticket, since: now, deadline: now + maxWaitMs });
    this.#queues.set(tenant, queue);
    return { outcome: "queued" };
  }

  /** Stops every grant until `seconds` (at least 1) from `now`; a shorter pause never cuts a longer one. */
  pause(seconds: number, now: number): void {
    const until = now + Math.max(1, seconds) * 1000;
    if (until > this.#pausedUntil) this.#pausedUntil = until;
  }

  /**
   * Refuses the waiters whose deadline has passed (a pause can push their turn out of reach), then
   * grants every permit the window allows, one per tenant per turn.
   */
  drain(now: number): Drain<T> {
    this.#prune(now);
    const out: Drain<T> = { granted: [], refused: this.#expire(now), wakeAt: null };
    while (this.#ring.length > 0 && now >= this.#pausedUntil && this.#granted.length < this.#limit) {
      const tenant = this.#ring.shift() as string;
      const queue = this.#queues.get(tenant) ?? [];
      const waiter = queue.shift();
      if (queue.length > 0) this.#ring.push(tenant);
      else this.#queues.delete(tenant);
      if (!waiter) continue;
      this.#granted.push(now);
      this.#countersOf(tenant).permits++;
      out.granted.push({ tenant, ticket: waiter.ticket, waitedMs: now - waiter.since });
    }
    if (this.#ring.length === 0) return out;
    const oldest = this.#granted[0];
    const nextFree = Math.max(this.#pausedUntil, oldest === undefined ? now : oldest + this.#windowMs);
    let soonestDeadline = Infinity;
    for (const q of this.#queues.values()) for (const w of q) soonestDeadline = Math.min(soonestDeadline, w.deadline);
    out.wakeAt = Math.min(nextFree, soonestDeadline);
    return out;
  }

  /**
   * Estimated wait of a new request of `tenant`, ms: the permits served before it under round-robin
   * (its own queue, plus at most one more than that from every other tenant), spread over the
   * windows to come, and never before a pause ends.
   */
  estimateWait(tenant: string, now: number): number {
    this.#prune(now);
    const mine = this.#queues.get(tenant)?.length ?? 0;
    let ahead = mine;
    for (const [other, q] of this.#queues) if (other !== tenant) ahead += Math.min(q.length, mine + 1);
    const free = this.#limit - this.#granted.length;
    const start = Math.max(0, this.#pausedUntil - now);
    if (ahead < free) return start;
    const oldest = this.#granted[0] ?? now;
    const firstFree = Math.max(0, oldest + this.#windowMs - now);
    return Math.max(start, firstFree) + Math.floor((ahead - free) / this.#limit) * this.#windowMs;
  }

  /** Counters per tenant since this queue was made. */
  counters(): Record<string, TenantCounters> {
    return Object.fromEntries([...this.#counters].map(([tenant, c]) => [tenant, { ...c }]));
  }

  /** How many requests wait, over all tenants. */
  get waiting(): number {
    let n = 0;
    for (const q of this.#queues.values()) n += q.length;
    return n;
  }

  #countersOf(tenant: string): TenantCounters {
    let c = this.#counters.get(tenant);
    if (!c) this.#counters.set(tenant, (c = { permits: 0, waited: 0, refused: 0 }));
    return c;
  }

  #prune(now: number): void {
    while (this.#granted.length > 0 && (this.#granted[0] ?? 0) <= now - this.#windowMs) this.#granted.shift();
  }

  #expire(now: number): Drain<T>["refused"] {
    const refused: Drain<T>["refused"] = [];
    for (const [tenant, queue] of this.#queues) {
      const keep = queue.filter((w) => {
        if (w.deadline > now) return true;
        this.#countersOf(tenant).refused++;
        refused.push({ tenant, ticket: w.ticket, retryAfterSeconds: retryAfter(this.#pausedUntil - now) });
        return false;
      });
      if (keep.length > 0) this.#queues.set(tenant, keep);
      else {
        this.#queues.delete(tenant);
        this.#ring = this.#ring.filter((t) => t !== tenant);
      }
    }
    return refused;
  }
}
