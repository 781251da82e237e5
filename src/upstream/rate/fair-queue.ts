/**
 * @module The governor's policy without timers or promises: per-lane queues served round-robin
 * under one pace and window, deadlines and pauses; the watcher's queue is served only when the
 * first class's is empty. Every method takes the time (epoch ms). See docs/design/rate-governor.md.
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

/** What `drain` decided for queued callers, and when to call it again (null: nothing waits). */
export interface Drain<T> {
  granted: { tenant: string; lane: Lane; ticket: T; waitedMs: number; permit: number }[];
  refused: { tenant: string; lane: Lane; ticket: T; retryAfterSeconds: number }[];
  wakeAt: number | null;
}

export interface QueueState extends PaceState {
  waiting: number;
  waitingLanes: number;
  inWindow: number;
  burst: number;
  watcher: WatcherState;
}

interface Waiter<T> {
  tenant: string;
  lane: Lane;
  ticket: T;
  since: number;
  deadline: number;
}

/** Whole seconds for a Retry-After: at least 1, since 0 invites a retry into the same wait. */
const retryAfter = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Permits at a shared pace, served fairly between lanes. `T`: what answers a queued request later.
 * @example
 * q.offer("demo:acme", 5000, now, "call-1"); // granted now, or queued (then `drain`), or refused
 */
export class FairQueue<T> {
  readonly #pacer: Pacer;
  readonly #window: GrantWindow | undefined;
  readonly #room: WatcherRoom;
  readonly #first = new RoundRobin<Waiter<T>>();
  readonly #low = new RoundRobin<Waiter<T>>();
  readonly #counters = new LaneCounters();

  /** No `window`: every permit is paced, and the watcher is off; no `room`: the watcher is off. */
  constructor(pacer: Pacer, window?: GrantWindow, room?: WatcherRoom) {
    this.#pacer = pacer;
    this.#window = window;
    this.#room = window && room ? room : new WatcherRoom(0);
  }

  /** A request that may wait `maxWaitMs`: granted now, refused (its turn is later), or queued. */
  offer(tenant: string, maxWaitMs: number, now: number, ticket: T, lane: Lane = "caller"): Offer {
    const key = laneKey(tenant, lane);
    const low = classOf(lane) === "low";
    const counters = this.#counters.of(key);
    if (low ? this.#low.size === 0 && this.#watcherOpen(now) : this.#goesNow(key, now)) {
      counters.permits++;
      return { outcome: "granted", permit: this.#grant(now, key, low, false) };
    }
    const estimate = low ? this.#watcherEstimate(now) : this.estimateWait(tenant, now, lane);
    // A watcher never waits out a 429's back-off: it is refused and asks again then.
    if (estimate > maxWaitMs || (low && this.#room.outFor(now, this.#pacer) > 0)) {
      counters.refused++;
      return { outcome: "refused", retryAfterSeconds: retryAfter(estimate) };
    }
    counters.waited++;
    const waiter = { tenant, lane, ticket, since: now, deadline: now + maxWaitMs };
    (low ? this.#low : this.#first).push(key, waiter);
    return { outcome: "queued" };
  }

  throttled(seconds: number, now: number, permit: number): Reaction {
    this.#room.throttled(now, seconds);
    const reaction = this.#pacer.throttled(seconds, now, permit);
    // Only a reaction teaches the burst: an echo is a call of the burst already judged.
    if (reaction !== "echo") this.#window?.throttled(permit, now);
    return reaction;
  }

  departed(permit: number, at: number, now: number): boolean {
    return this.#window?.departed(permit, at, now) ?? false;
  }

  /** Refuses waiters past their deadline, then grants what the pace allows now, watchers last. */
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

  /** Estimated wait of a new first-class request, ms: its turn, any pause, and the window. */
  estimateWait(tenant: string, now: number, lane: Lane = "caller"): number {
    const ahead = this.#first.ahead(laneKey(tenant, lane));
    const paced = this.#pacer.eta(ahead, now);
    return Math.max(paced, (this.#window?.roomAt(now, ahead, "first") ?? now) - now);
  }

  counters() {
    return this.#counters.byTenant();
  }

  laneCounters() {
    return this.#counters.byLane();
  }

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

  waitingByLane(): Record<string, number> {
    return { ...this.#first.byKey(), ...this.#low.byKey() };
  }

  get waiting(): number {
    return this.#first.size;
  }

  /**
   * Whether a new first-class request of lane `key` goes at once: never past the window's limit
   * (which counts the watcher's permits too), ahead of its lane's queue, or into a pause.
   */
  #goesNow(key: string, now: number): boolean {
    const idle = this.#first.size === 0;
    const w = this.#window;
    if (!w) return idle && this.#pacer.ready(now);
    if (this.#first.has(key) || !w.hasRoom(now)) return false;
    if (idle && this.#pacer.ready(now)) return true;
    return this.#pacer.state(now).pausedForMs === 0 && w.mayBurst(key, now, idle);
  }

  #grant(now: number, key: string, low: boolean, queued: boolean): number {
    const permit = low ? this.#pacer.number() : this.#pacer.grant(now, queued);
    this.#window?.record(now, key, permit, low ? "low" : "first");
    return permit;
  }

  #roomNow(now: number): boolean {
    return this.#window?.hasRoom(now) ?? true;
  }

  #watcherOpenAt(now: number): number {
    return this.#window ? this.#room.openAt(now, this.#window, this.#pacer) : Infinity;
  }

  #watcherOpen(now: number): boolean {
    return this.#first.size === 0 && this.#watcherOpenAt(now) <= now;
  }

  #watcherEstimate(now: number): number {
    if (!this.#window) return WATCHER_OFF_RETRY_MS;
    return this.#room.estimate(now, this.#window, this.#pacer, this.#first.size, this.#low.size);
  }

  /** Takes out the waiters past their deadline (every watcher while a 429 keeps them out). */
  #expire(queue: RoundRobin<Waiter<T>>, now: number, low: boolean): Drain<T>["refused"] {
    const out = low && this.#room.outFor(now, this.#pacer) > 0;
    const expired = queue.remove((w) => out || w.deadline <= now);
    return expired.map(({ key, waiting: { tenant, lane, ticket } }) => {
      this.#counters.of(key).refused++;
      const wait = low ? this.#watcherEstimate(now) : this.estimateWait(tenant, now, lane);
      return { tenant, lane, ticket, retryAfterSeconds: retryAfter(wait) };
    });
  }
}
