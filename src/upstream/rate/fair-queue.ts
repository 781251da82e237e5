/**
 * @module
 * The policy of the rate governor, without timers or promises: per-tenant queues served
 * round-robin under one shared pace (`pacer.ts`), deadlines, and pauses. Every method takes the
 * current time as an argument (epoch ms), so tests drive the clock themselves and assert on counts
 * and order; `upstream/rate-governor.ts` keeps the timer and resolves the promises.
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
 * Lanes and classes (`lanes.ts`): the queue's round-robin keys are lanes (a tenant's callers, its
 * assistant), so fairness is between lanes; the first class (callers and assistants) waits in one
 * round-robin, the watcher in a second one, served only when the first is empty and then only from
 * the room `watcher-room.ts` allows. The watcher's permits are numbered but not paced: the first
 * class's pace, like its burst, is the same with or without them.
 */
import type { Lane } from "../client";
import type { GrantWindow } from "./grant-window";
import { LaneCounters } from "./lane-counters";
import { classOf, laneKey } from "./lanes";
import type { PaceState, Pacer, Reaction } from "./pacer";
import { RoundRobin } from "./round-robin";
import { WATCHER_OFF_RETRY_MS, WatcherRoom, type WatcherState } from "./watcher-room";

export type { TenantCounters } from "./lane-counters";

/** What `offer` decided: a permit now, a place in the queue, or a refusal with a Retry-After. */
export type Offer =
  | { outcome: "granted"; permit: number }
  | { outcome: "queued" }
  | { outcome: "refused"; retryAfterSeconds: number };

/**
 * What `drain` decided for queued callers, and when it must be called again (null: nothing waits).
 */
export interface Drain<T> {
  granted: { tenant: string; lane: Lane; ticket: T; waitedMs: number; permit: number }[];
  refused: { tenant: string; lane: Lane; ticket: T; retryAfterSeconds: number }[];
  wakeAt: number | null;
}

/** The pace and the queue, for counters and the bench. */
export interface QueueState extends PaceState {
  /** First-class requests waiting, over all lanes. */
  waiting: number;
  /** First-class lanes with at least one request waiting. */
  waitingLanes: number;
  /**
   * Permits in the window of the last second plus the transit margin, of both classes (0 with no
   * window).
   */
  inWindow: number;
  /** How many permits may go at once into a free window now (1 with no window: pacing). */
  burst: number;
  /** The watcher's places, permits, queue and back-off (none without a window). */
  watcher: WatcherState;
}

interface Waiter<T> {
  tenant: string;
  lane: Lane;
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
 * Permits at a shared pace, served fairly between lanes. `T` is whatever the caller needs to answer
 * a queued request later (the governor keeps a promise's resolve function).
 *
 * @see upstream/rate-governor.ts, the shell that keeps its timer; pacer.ts, the pace.
 * @example
 * const q = new FairQueue<string>(new Pacer({ limit: 10, margin: 0.04, catchUpMs: 5 }));
 * q.offer("demo:acme", 5000, now, "call-1"); // { outcome: "granted" } when the pace allows one now
 * const { granted, wakeAt } = q.drain(now);   // call again at wakeAt
 */
export class FairQueue<T> {
  readonly #pacer: Pacer;
  readonly #window: GrantWindow | undefined;
  /** The watcher's room; none (no window, or no places): every watcher request is refused. */
  readonly #room: WatcherRoom;
  /** Who of the first class waits, one queue per lane (`lanes.ts`). */
  readonly #first = new RoundRobin<Waiter<T>>();
  /** Which watchers wait, one queue per tenant's watcher lane; served when `#first` is empty. */
  readonly #low = new RoundRobin<Waiter<T>>();
  readonly #counters = new LaneCounters();

  /**
   * `window`: grant bursts into a free budget at once (see `grant-window.ts`); none: pace all.
   * `room`: the watcher's (`watcher-room.ts`); none, or no window: the watcher is off.
   */
  constructor(pacer: Pacer, window?: GrantWindow, room?: WatcherRoom) {
    this.#pacer = pacer;
    this.#window = window;
    this.#room = window && room ? room : new WatcherRoom(0);
  }

  /**
   * A request of `tenant`'s `lane` that may wait `maxWaitMs`: granted at once when its class's
   * rules allow a permit now; refused when its estimated turn is later than that; queued otherwise
   * (call `drain` next, then at its `wakeAt`).
   */
  offer(tenant: string, maxWaitMs: number, now: number, ticket: T, lane: Lane = "caller"): Offer {
    const key = laneKey(tenant, lane);
    const low = classOf(lane) === "low";
    const counters = this.#counters.of(key);
    if (low ? this.#low.size === 0 && this.#watcherOpen(now) : this.#goesNow(key, now)) {
      counters.permits++;
      return { outcome: "granted", permit: this.#grant(now, key, low, false) };
    }
    const estimate = low ? this.#watcherEstimate(now) : this.estimateWait(tenant, now, lane);
    // A watcher waits its turn, never a 429's back-off: it is refused and asks again then.
    if (estimate > maxWaitMs || (low && this.#room.outFor(now, this.#pacer) > 0)) {
      counters.refused++;
      return { outcome: "refused", retryAfterSeconds: retryAfter(estimate) };
    }
    counters.waited++;
    const waiter = { tenant, lane, ticket, since: now, deadline: now + maxWaitMs };
    (low ? this.#low : this.#first).push(key, waiter);
    return { outcome: "queued" };
  }

  /**
   * The API answered 429 to the call of `permit`: the watcher backs off, and the pace reacts (see
   * `Pacer.throttled`).
   */
  throttled(seconds: number, now: number, permit: number): Reaction {
    this.#room.throttled(now, seconds);
    const reaction = this.#pacer.throttled(seconds, now, permit);
    // Only a reaction teaches the burst: an echo is a call of the burst already judged.
    if (reaction !== "echo") this.#window?.throttled(permit, now);
    return reaction;
  }

  /**
   * The call of `permit` left only at `at`, later than its grant (its caller was held up): the
   * window counts it from then (`GrantWindow.departed`). False when that changes nothing.
   */
  departed(permit: number, at: number, now: number): boolean {
    return this.#window?.departed(permit, at, now) ?? false;
  }

  /**
   * Refuses the waiters whose deadline has passed (a pause can push their turn out of reach), then
   * grants the permits the pace allows now, to the lanes whose turn it is; then, if no first-class
   * request is left waiting, the watcher's the room allows.
   */
  drain(now: number): Drain<T> {
    const refused = [
      ...this.#expire(this.#first, now, false),
      ...this.#expire(this.#low, now, true),
    ];
    const out: Drain<T> = { granted: [], refused, wakeAt: null };
    const serve = (queue: RoundRobin<Waiter<T>>, low: boolean) => {
      const next = queue.shift();
      if (!next) return;
      const { key, waiting: w } = next;
      this.#counters.of(key).permits++;
      const permit = this.#grant(now, key, low, true);
      out.granted.push({
        tenant: w.tenant,
        lane: w.lane,
        ticket: w.ticket,
        waitedMs: now - w.since,
        permit,
      });
    };
    while (this.#first.size > 0 && this.#pacer.ready(now) && this.#roomNow(now))
      serve(this.#first, false);
    while (this.#first.size === 0 && this.#low.size > 0 && this.#watcherOpen(now))
      serve(this.#low, true);
    if (this.#first.size + this.#low.size === 0) return out;
    let soonestDeadline = Infinity;
    for (const q of [this.#first, this.#low])
      for (const w of q.all()) soonestDeadline = Math.min(soonestDeadline, w.deadline);
    const due =
      this.#first.size > 0
        ? Math.max(this.#pacer.nextAt(), this.#window?.roomAt(now) ?? now)
        : this.#watcherOpenAt(now);
    out.wakeAt = Math.min(due, soonestDeadline);
    return out;
  }

  /**
   * Estimated wait of a new first-class request of `tenant`'s `lane`, ms: the permits served before
   * it under round-robin (its lane's own queue, plus at most one more than that from every other
   * lane) at the current spacing, after the next permit is due (never before a pause ends), and
   * after the first class's own grants leave room (the watcher's are not counted: see
   * `watcher-room.ts`).
   */
  estimateWait(tenant: string, now: number, lane: Lane = "caller"): number {
    const ahead = this.#first.ahead(laneKey(tenant, lane));
    const paced = this.#pacer.eta(ahead, now);
    return Math.max(paced, (this.#window?.roomAt(now, ahead, "first") ?? now) - now);
  }

  /** First-class counters per tenant (its lanes summed) since this queue was made. */
  counters() {
    return this.#counters.byTenant();
  }

  /** Counters per lane (`lanes.ts`: `demo:acme`, `demo:acme#assistant`, `demo:acme#watcher`). */
  laneCounters() {
    return this.#counters.byLane();
  }

  /** The pace, how many wait, and the watcher. */
  state(now: number): QueueState {
    const w = this.#window;
    return {
      ...this.#pacer.state(now),
      waiting: this.#first.size,
      waitingLanes: this.#first.keys,
      inWindow: w?.count(now) ?? 0,
      burst: w?.burst(now) ?? 1,
      watcher: w
        ? this.#room.state(now, w, this.#pacer, this.#low.size)
        : { places: 0, inWindow: 0, waiting: this.#low.size, backedOffForMs: 0 },
    };
  }

  /** How many requests wait, per lane with any waiting, of both classes. */
  waitingByLane(): Record<string, number> {
    return { ...this.#first.byKey(), ...this.#low.byKey() };
  }

  /** How many first-class requests wait, over all lanes. */
  get waiting(): number {
    return this.#first.size;
  }

  /**
   * Whether a new first-class request of lane `key` is granted at once. With no window: when
   * nobody of the first class waits and the spacing allows. With one, also when the window's burst
   * has a place for it (`mayBurst`), never during a pause, never ahead of its own lane's queue, and
   * never beyond the window's limit: that limit, which counts the watcher's permits too, is what
   * keeps every second at the API within the quota (see `grant-window.ts`).
   */
  #goesNow(key: string, now: number): boolean {
    const idle = this.#first.size === 0;
    const w = this.#window;
    if (!w) return idle && this.#pacer.ready(now);
    if (this.#first.has(key) || !w.hasRoom(now)) return false;
    if (idle && this.#pacer.ready(now)) return true;
    return this.#pacer.state(now).pausedForMs === 0 && w.mayBurst(key, now, idle);
  }

  /** Numbers (and, for the first class, paces) a permit of lane `key` at `now`, in the window. */
  #grant(now: number, key: string, low: boolean, queued: boolean): number {
    const permit = low ? this.#pacer.number() : this.#pacer.grant(now, queued);
    this.#window?.record(now, key, permit, low ? "low" : "first");
    return permit;
  }

  /** Whether the window (if any) takes one more permit now. */
  #roomNow(now: number): boolean {
    return this.#window?.hasRoom(now) ?? true;
  }

  /** When a watcher permit may go, nobody of the first class waiting (Infinity: the watcher is off). */
  #watcherOpenAt(now: number): number {
    return this.#window ? this.#room.openAt(now, this.#window, this.#pacer) : Infinity;
  }

  /** Whether a watcher permit may go now: nobody of the first class waits, and the room is open. */
  #watcherOpen(now: number): boolean {
    return this.#first.size === 0 && this.#watcherOpenAt(now) <= now;
  }

  /** Estimated wait of a new watcher request, ms (see `WatcherRoom.estimate`). */
  #watcherEstimate(now: number): number {
    if (!this.#window) return WATCHER_OFF_RETRY_MS;
    return this.#room.estimate(now, this.#window, this.#pacer, this.#first.size, this.#low.size);
  }

  /**
   * Takes the waiters of `queue` whose deadline has passed (and every watcher while a 429 keeps
   * them out); each is told when its lane's turn would now come.
   */
  #expire(queue: RoundRobin<Waiter<T>>, now: number, low: boolean): Drain<T>["refused"] {
    // A 429 sends the queued watchers away too: they wait their turn, not the back-off.
    const out = low && this.#room.outFor(now, this.#pacer) > 0;
    const expired = queue.remove((w) => out || w.deadline <= now);
    return expired.map(({ key, waiting: { tenant, lane, ticket } }) => {
      this.#counters.of(key).refused++;
      const wait = low ? this.#watcherEstimate(now) : this.estimateWait(tenant, now, lane);
      return { tenant, lane, ticket, retryAfterSeconds: retryAfter(wait) };
    });
  }
}
