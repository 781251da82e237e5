/**
 * @module
 * The policy of the rate governor, without timers or promises: per-tenant queues served
 * round-robin under one shared pace (`pacer.ts`), deadlines, and pauses. Every method takes the
 * current time as an argument (epoch ms), so tests drive the clock themselves and assert on counts
 * and order; `durable/rate-governor.ts` keeps the timer and resolves the promises.
 *
 * Fairness: waiting callers are queued per tenant and served round-robin (`round-robin.ts`), one
 * permit per tenant per turn, so one tenant's bulk job cannot starve another tenant's single
 * invoice: a tenant that sends one call waits at most one permit per other waiting tenant, whatever
 * their backlog.
 * Deadlines: a caller says how long it may wait; if its estimated turn lies beyond that, it is
 * refused at once with a Retry-After instead of being queued to fail later. The estimate is the
 * permits ahead of it under round-robin times the current spacing, so it grows after a 429.
 * Pauses: after repeated 429s the whole environment stops for the Retry-After, because the key
 * (and so the limit) is shared by all tenants alike; the pace then slows (see `pacer.ts`).
 * Bursts (with a `GrantWindow`): a request that finds the last second's budget free goes at once,
 * with no spacing; only what has to queue is paced. Queued requests keep the spacing *and* the
 * window: after a burst the window is full, and the spacing then spreads the grants that follow
 * evenly instead of repeating the burst a window later. Without a window, every permit is paced.
 */
import type { GrantWindow } from "./grant-window";
import type { PaceState, Pacer, Reaction } from "./pacer";
import { RoundRobin } from "./round-robin";

/** Per-tenant counters: permits granted, callers that had to queue, callers refused. */
export interface TenantCounters {
  permits: number;
  waited: number;
  refused: number;
}

/** What `offer` decided: a permit now, a place in the queue, or a refusal with a Retry-After. */
export type Offer =
  | { outcome: "granted"; permit: number }
  | { outcome: "queued" }
  | { outcome: "refused"; retryAfterSeconds: number };

/**
 * What `drain` decided for queued callers, and when it must be called again (null: nothing waits).
 */
export interface Drain<T> {
  granted: { tenant: string; ticket: T; waitedMs: number; permit: number }[];
  refused: { tenant: string; ticket: T; retryAfterSeconds: number }[];
  wakeAt: number | null;
}

/** The pace and the queue, for counters and the bench. */
export interface QueueState extends PaceState {
  /** Requests waiting, over all tenants. */
  waiting: number;
  /** Tenants with at least one request waiting. */
  waitingTenants: number;
  /** Permits in the window of the last second plus the transit margin (0 with no window). */
  inWindow: number;
  /** How many permits may go at once into a free window now (1 with no window: pacing). */
  burst: number;
}

interface Waiter<T> {
  tenant: string;
  ticket: T;
  since: number;
  deadline: number;
}

/**
 * Whole seconds for a Retry-After: at least 1, since 0 invites an immediate retry into the same
 * wait.
 */
const retryAfter = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Permits at a shared pace, served fairly between tenants. `T` is whatever the caller needs to
 * answer a queued request later (the governor keeps a promise's resolve function).
 *
 * @see durable/rate-governor.ts, the shell that keeps its timer; pacer.ts, the pace.
 * @example
 * const q = new FairQueue<string>(new Pacer({ limit: 10, margin: 0.04, catchUpMs: 5 }));
 * q.offer("demo:acme", 5000, now, "call-1"); // { outcome: "granted" } when the pace allows one now
 * const { granted, wakeAt } = q.drain(now);   // call again at wakeAt
 */
export class FairQueue<T> {
  readonly #pacer: Pacer;
  readonly #window: GrantWindow | undefined;
  /**
   * Who waits, one queue per tenant. The queue's key is the tenant today; a lane of a tenant, or a
   * class of lower priority (a second `RoundRobin` served when this one is empty), changes only
   * `#keyOf` and the one place that picks the next waiter (`#next`).
   */
  readonly #waiting = new RoundRobin<Waiter<T>>();
  #counters = new Map<string, TenantCounters>();

  /** `window`: grant bursts into a free budget at once (see `grant-window.ts`); none: pace all. */
  constructor(pacer: Pacer, window?: GrantWindow) {
    this.#pacer = pacer;
    this.#window = window;
  }

  /**
   * A request of `tenant` that may wait `maxWaitMs`: granted at once when nobody waits and the
   * pace allows a permit now; refused when its estimated turn is later than that; queued otherwise
   * (call `drain` next, then at its `wakeAt`).
   */
  offer(tenant: string, maxWaitMs: number, now: number, ticket: T): Offer {
    const counters = this.#countersOf(tenant);
    if (this.#goesNow(tenant, now)) {
      const permit = this.#pacer.grant(now, false);
      this.#window?.record(now, tenant, permit);
      counters.permits++;
      return { outcome: "granted", permit };
    }
    const estimate = this.estimateWait(tenant, now);
    if (estimate > maxWaitMs) {
      counters.refused++;
      return { outcome: "refused", retryAfterSeconds: retryAfter(estimate) };
    }
    counters.waited++;
    this.#waiting.push(this.#keyOf(tenant), {
      tenant,
      ticket,
      since: now,
      deadline: now + maxWaitMs,
    });
    return { outcome: "queued" };
  }

  /** The API answered 429 to the call of `permit`: the pace reacts (see `Pacer.throttled`). */
  throttled(seconds: number, now: number, permit: number): Reaction {
    const reaction = this.#pacer.throttled(seconds, now, permit);
    // Only a reaction teaches the burst: an echo is a call of the burst already judged.
    if (reaction !== "echo") this.#window?.throttled(permit, now);
    return reaction;
  }

  /**
   * Refuses the waiters whose deadline has passed (a pause can push their turn out of reach), then
   * grants the permit the pace allows now, to the tenant whose turn it is.
   */
  drain(now: number): Drain<T> {
    const out: Drain<T> = { granted: [], refused: this.#expire(now), wakeAt: null };
    while (this.#waiting.size > 0 && this.#pacer.ready(now) && this.#roomNow(now)) {
      const waiter = this.#next();
      if (!waiter) break;
      const { tenant } = waiter;
      const permit = this.#pacer.grant(now, true);
      this.#window?.record(now, tenant, permit);
      this.#countersOf(tenant).permits++;
      out.granted.push({ tenant, ticket: waiter.ticket, waitedMs: now - waiter.since, permit });
    }
    if (this.#waiting.size === 0) return out;
    let soonestDeadline = Infinity;
    for (const w of this.#waiting.all()) soonestDeadline = Math.min(soonestDeadline, w.deadline);
    const due = Math.max(this.#pacer.nextAt(), this.#window?.roomAt(now) ?? now);
    out.wakeAt = Math.min(due, soonestDeadline);
    return out;
  }

  /**
   * Estimated wait of a new request of `tenant`, ms: the permits served before it under round-robin
   * (its own queue, plus at most one more than that from every other tenant) at the current
   * spacing, after the next permit is due (never before a pause ends).
   */
  estimateWait(tenant: string, now: number): number {
    const ahead = this.#waiting.ahead(this.#keyOf(tenant));
    const paced = this.#pacer.eta(ahead, now);
    return Math.max(paced, (this.#window?.roomAt(now, ahead) ?? now) - now);
  }

  /** Counters per tenant since this queue was made. */
  counters(): Record<string, TenantCounters> {
    return Object.fromEntries([...this.#counters].map(([tenant, c]) => [tenant, { ...c }]));
  }

  /** The pace and how many wait. */
  state(now: number): QueueState {
    return {
      ...this.#pacer.state(now),
      waiting: this.waiting,
      waitingTenants: this.#waiting.keys,
      inWindow: this.#window?.count(now) ?? 0,
      burst: this.#window?.burst(now) ?? 1,
    };
  }

  /** How many requests wait, per tenant with any waiting. */
  waitingByTenant(): Record<string, number> {
    return this.#waiting.byKey();
  }

  /** How many requests wait, over all tenants. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /**
   * Whether a new request of `tenant` is granted at once. With no window: when nobody waits and the
   * spacing allows. With one, also when the window's burst has a place for it (`mayBurst`), never
   * during a pause, never ahead of its own tenant's queue, and never beyond the window's limit:
   * that limit is what keeps every second at the API within the quota (see `grant-window.ts`).
   */
  #goesNow(tenant: string, now: number): boolean {
    const idle = this.#waiting.size === 0;
    const w = this.#window;
    if (!w) return idle && this.#pacer.ready(now);
    if (this.#waiting.has(this.#keyOf(tenant)) || !w.hasRoom(now)) return false;
    if (idle && this.#pacer.ready(now)) return true;
    return this.#pacer.state(now).pausedForMs === 0 && w.mayBurst(tenant, now, idle);
  }

  /** Whether the window (if any) takes one more permit now. */
  #roomNow(now: number): boolean {
    return this.#window?.hasRoom(now) ?? true;
  }

  /** The queue a request of `tenant` waits in: its tenant's own. */
  #keyOf(tenant: string): string {
    return tenant;
  }

  /** The waiter whose turn it is, taken out of the queue. */
  #next(): Waiter<T> | undefined {
    return this.#waiting.shift()?.waiting;
  }

  #countersOf(tenant: string): TenantCounters {
    let c = this.#counters.get(tenant);
    if (!c) this.#counters.set(tenant, (c = { permits: 0, waited: 0, refused: 0 }));
    return c;
  }

  /**
   * Takes the waiters whose deadline has passed out of the queues; each is told when its tenant's
   * turn would now come.
   */
  #expire(now: number): Drain<T>["refused"] {
    const expired = this.#waiting.remove((w) => w.deadline <= now);
    return expired.map(({ waiting: { tenant, ticket } }) => {
      this.#countersOf(tenant).refused++;
      return { tenant, ticket, retryAfterSeconds: retryAfter(this.estimateWait(tenant, now)) };
    });
  }
}
