/**
 * @module `RateGovernor`: one per environment (per subscription key, whose 10 requests a second
 * all tenants share); every upstream call takes a permit here. In memory only; the pure policy is
 * in `upstream/rate/`. See docs/design/rate-governor.md.
 */
import { DurableObject } from "cloudflare:workers";
import { readConfig, type Bindings } from "../kernel/config";
import { log } from "../kernel/log";
import { FairQueue, type QueueState, type TenantCounters } from "./rate/fair-queue";
import { GrantWindow } from "./rate/grant-window";
import { KeyHealth, type RefusalVerdict } from "./rate/key-health";
import { watcherPlaces } from "./rate/lanes";
import { Pacer } from "./rate/pacer";
import { PermitRing, RING_SECONDS } from "./rate/permit-ring";
import { WatcherRoom } from "./rate/watcher-room";
import type { Lane } from "./client";
import { LATE_DEPARTURE_MS } from "./departure";

/** The share of the limit left unused for jitter on the way: a permit every 104.2 ms. */
const PACING_MARGIN = 0.04;
/** How much of a late timer the next queued permit may make up, ms (`PacerOptions.catchUpMs`). */
const CATCH_UP_MS = 5;
/** Places of a burst kept for other tenants' first calls. */
const BURST_RESERVE = 2;
/** The shortest timer, ms: a wake time already reached still goes through the event loop once. */
const MIN_TIMER_MS = 1;

/** `permit` goes back with `throttled` (a 429) or `departed`; `grantedAt`: this object's clock. */
export type Permit =
  | { ok: true; waitedMs: number; permit: number; grantedAt: number }
  | { ok: false; retryAfterSeconds: number };

export type GovernorCounters = TenantCounters;

export interface GovernorBudget {
  perSecond: number[];
  lastMinuteByLane: Record<Lane, number>;
  waitingByLane: Record<string, number>;
  throttled: number;
  state: QueueState;
}

/**
 * The permits of one environment, and its token endpoint's health; RPC reaches every public method.
 * @example env.RATE_GOVERNOR.get(env.RATE_GOVERNOR.idFromName("demo")).acquire("demo:acme", 5000)
 */
export class RateGovernor extends DurableObject<Bindings> {
  readonly #queue: FairQueue<(permit: Permit) => void>;
  readonly #keys = new KeyHealth();
  // In memory, like the queue; one ring per kind of lane, for the console's split.
  readonly #granted: Record<Lane, PermitRing> = {
    caller: new PermitRing(),
    assistant: new PermitRing(),
    watcher: new PermitRing(),
  };
  #throttled = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    const config = readConfig(env);
    const limit = config.rateLimitPerSecond;
    const margin = config.ratePacingMargin ?? PACING_MARGIN;
    // The jitter budget the pace leaves: ten spaced permits span 1036.7 ms at 4 %, so 36.7 ms.
    const transitMarginMs = Math.max(0, 1000 / (1 - margin) - 1000 - CATCH_UP_MS);
    this.#queue = new FairQueue(
      new Pacer({ limit, margin, catchUpMs: CATCH_UP_MS }),
      new GrantWindow({
        limit,
        transitMarginMs,
        reserve: Math.min(BURST_RESERVE, limit - 1),
        // Callers report only departures later than this (`upstream/departure.ts`).
        unreportedLatenessMs: Math.min(LATE_DEPARTURE_MS, transitMarginMs),
      }),
      new WatcherRoom(watcherPlaces(limit, config.watcherBudgetShare)),
    );
  }

  /** A permit for `tenant`'s `lane` within `maxWaitMs`, or at once a refusal with a Retry-After. */
  acquire(tenant: string, maxWaitMs: number, lane: Lane = "caller"): Promise<Permit> {
    const { promise, resolve } = Promise.withResolvers<Permit>();
    const offer = this.#queue.offer(tenant, maxWaitMs, Date.now(), resolve, lane);
    if (offer.outcome === "granted") {
      const now = Date.now();
      this.#granted[lane].add(now);
      return Promise.resolve({ ok: true, waitedMs: 0, permit: offer.permit, grantedAt: now });
    }
    if (offer.outcome === "refused")
      return Promise.resolve({ ok: false, retryAfterSeconds: offer.retryAfterSeconds });
    this.#pump();
    return promise;
  }

  /** The API answered 429 to `permit`'s call: the watcher backs off, and the pace reacts. */
  throttled(seconds: number, permit: number): void {
    const now = Date.now();
    this.#throttled++;
    const reaction = this.#queue.throttled(seconds, now, permit);
    const after = this.#queue.state(now);
    // Worth an operator's look: a stall on the way, a margin too thin, or another user of the key.
    if (reaction !== "echo")
      log.warn(`rate-${reaction}`, {
        environment: this.ctx.id.name,
        retryAfterSeconds: seconds,
        pausedForMs: after.pausedForMs,
        spacingMs: Math.round(after.spacingMs),
        perSecond: Number(after.perSecond.toFixed(2)),
      });
    this.#pump();
  }

  /** `permit`'s call left late, at `at`: the window recounts it (`upstream/departure.ts`). */
  departed(permit: number, at: number): void {
    this.#queue.departed(permit, at, Date.now());
  }

  tokenIssued(tenant: string): void {
    this.#keys.issued(tenant, Date.now());
  }

  /** The token endpoint refused `tenant`'s key (`proven`: it got a token before): whose fault. */
  tokenRefused(tenant: string, proven: boolean): RefusalVerdict {
    return this.#keys.refused(tenant, proven, Date.now());
  }

  keyHealth(): { suspect: boolean; refusedTenants: number } {
    return this.#keys.view(Date.now());
  }

  /** First-class counters per tenant (callers and assistant summed) since this object started. */
  counters(): Record<string, GovernorCounters> {
    return this.#queue.counters();
  }

  laneCounters(): Record<string, GovernorCounters> {
    return this.#queue.laneCounters();
  }

  state(): QueueState {
    return this.#queue.state(Date.now());
  }

  budget(): GovernorBudget {
    const now = Date.now();
    const series = Object.values(this.#granted).map((ring) => ring.series(now));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    return {
      perSecond: Array.from({ length: RING_SECONDS }, (_, i) => sum(series.map((s) => s[i] ?? 0))),
      lastMinuteByLane: {
        caller: sum(this.#granted.caller.series(now)),
        assistant: sum(this.#granted.assistant.series(now)),
        watcher: sum(this.#granted.watcher.series(now)),
      },
      waitingByLane: this.#queue.waitingByLane(),
      throttled: this.#throttled,
      state: this.#queue.state(now),
    };
  }

  /** Answers every caller the queue decided on, and sleeps until it can decide again. */
  #pump(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const now = Date.now();
    const { granted, refused, wakeAt } = this.#queue.drain(now);
    for (const r of refused) r.ticket({ ok: false, retryAfterSeconds: r.retryAfterSeconds });
    for (const g of granted) {
      this.#granted[g.lane].add(now);
      g.ticket({ ok: true, waitedMs: g.waitedMs, permit: g.permit, grantedAt: now });
    }
    if (wakeAt !== null)
      this.#timer = setTimeout(() => this.#pump(), Math.max(MIN_TIMER_MS, wakeAt - now));
  }
}
