/**
 * @module
 * `RateGovernor`: one per environment, that is one per subscription key. The API allows 10 requests
 * a second per subscription key across all clients, so every upstream call (token requests too)
 * takes a permit here first.
 *
 * The policy (round-robin between tenants, deadlines, pauses after a 429) lives in
 * `lib/rate/fair-queue.ts`, where tests drive its clock. This object only supplies the time, keeps
 * the one timer that wakes the queue, and answers the promises of the callers it holds.
 * Nothing is stored: a permit is worth a fraction of a second, and an evicted object loses only
 * callers whose RPC connections broke with it.
 *
 * It also keeps the health of the environment's token endpoint (`lib/rate/key-health.ts`): which
 * tenants' keys were refused since a token was last issued. That belongs here because this object is
 * exactly one per environment, which is the scope of the application and subscription keys, and
 * every token request already takes a permit here. It is not stored either: a deploy (the only way
 * the keys change) restarts the object, so what it forgets was judged under the old keys anyway,
 * and an eviction only makes the next verdicts more cautious ("unproven") for a while.
 */
import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../lib/config";
import { FairQueue, type TenantCounters } from "../lib/rate/fair-queue";
import { KeyHealth, type RefusalVerdict } from "../lib/rate/key-health";

/**
 * The window the limit counts over, ms: the API's second plus a margin, because a permit granted
 * here reaches the API a little later, and jitter on the way must not put 11 calls in its second.
 * 100 ms let 3 of 600 calls through to a 429 under a 200 req/s load on a saturated 2-core machine
 * (npm run bench); 200 ms costs a sixth of the throughput and buys that margin.
 */
const WINDOW_MS = 1200;
/** The API's limit per subscription key, per second. */
const DEFAULT_LIMIT = 10;
/** The shortest timer, ms: a wake time already reached still goes through the event loop once. */
const MIN_TIMER_MS = 1;

/** The answer to `acquire`. */
export type Permit = { ok: true; waitedMs: number } | { ok: false; retryAfterSeconds: number };

/** Per-tenant counters: permits granted, callers that had to queue, callers refused. */
export type GovernorCounters = TenantCounters;

/**
 * The permits of one environment, and its token endpoint's health. Its public methods are its whole
 * API (RPC reaches any public member).
 *
 * @example
 * const permit = await env.RATE_GOVERNOR.get(env.RATE_GOVERNOR.idFromName("demo")).acquire("demo:acme", 5000);
 */
export class RateGovernor extends DurableObject<Bindings> {
  readonly #queue: FairQueue<(permit: Permit) => void>;
  readonly #keys = new KeyHealth();
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    const n = Number(env.RATE_LIMIT_PER_SECOND);
    this.#queue = new FairQueue({ limit: Number.isInteger(n) && n > 0 ? n : DEFAULT_LIMIT, windowMs: WINDOW_MS });
  }

  /** Waits for a permit for `tenant`, at most `maxWaitMs`. */
  acquire(tenant: string, maxWaitMs: number): Promise<Permit> {
    const { promise, resolve } = Promise.withResolvers<Permit>();
    const offer = this.#queue.offer(tenant, maxWaitMs, Date.now(), resolve);
    if (offer.outcome === "granted") return Promise.resolve({ ok: true, waitedMs: 0 });
    if (offer.outcome === "refused") return Promise.resolve({ ok: false, retryAfterSeconds: offer.retryAfterSeconds });
    this.#pump();
    return promise;
  }

  /** Stops all permits of this environment for `seconds` (the API answered 429). */
  pause(seconds: number): void {
    this.#queue.pause(seconds, Date.now());
    this.#pump();
  }

  /** A token was issued to `tenant`: the environment's keys work. */
  tokenIssued(tenant: string): void {
    this.#keys.issued(tenant, Date.now());
  }

  /** The token endpoint refused `tenant`'s key (`proven`: one that got a token before); whose fault it is. */
  tokenRefused(tenant: string, proven: boolean): RefusalVerdict {
    return this.#keys.refused(tenant, proven, Date.now());
  }

  /** Whether the environment's keys are suspect (several tenants refused since the last token issued). */
  keyHealth(): { suspect: boolean; refusedTenants: number } {
    return this.#keys.view(Date.now());
  }

  /** Counters per tenant since this object started. */
  counters(): Record<string, GovernorCounters> {
    return this.#queue.counters();
  }

  /** Answers every caller the queue decided on, and sleeps until it can decide again. */
  #pump(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const now = Date.now();
    const { granted, refused, wakeAt } = this.#queue.drain(now);
    for (const r of refused) r.ticket({ ok: false, retryAfterSeconds: r.retryAfterSeconds });
    for (const g of granted) g.ticket({ ok: true, waitedMs: g.waitedMs });
    if (wakeAt !== null) this.#timer = setTimeout(() => this.#pump(), Math.max(MIN_TIMER_MS, wakeAt - now));
  }
}
