/**
 * @module
 * The permits of the last second plus the transit margin, counted as the API counts its calls, so
 * that a burst into a free budget goes at once instead of one spacing apart. Pure: every method
 * takes the time (epoch ms); `fair-queue.ts` asks it whether a request may go now, and keeps the
 * spacing (`pacer.ts`) for everything that has to queue.
 *
 * Why a window bounds the API's second: a permit is granted at `g` only while fewer than `limit`
 * permits lie in `(g − spanMs, g]`, with `spanMs = 1000 + transitMarginMs`. Take any `spanMs`-long
 * span of grants and its latest grant `g*`: every other grant of the span lies in
 * `(g* − spanMs, g*]`, where fewer than `limit` lay when `g*` was granted, so no span of `spanMs`
 * holds more than `limit` grants. A call granted at `g` reaches the API at `g + d + j`, `d` being
 * the path's fixed delay and `0 ≤ j ≤ transitMarginMs` its jitter (how much later than the
 * quickest call it arrives). The calls the API counts in one of its seconds, `[t, t + 1000)`, were
 * therefore granted in `[t − d − transitMarginMs, t − d + 1000)`: a span of `spanMs`, so at most
 * `limit` of them. Bursts do not change the argument: ten calls on the wire at once may arrive in
 * any order and spread, as long as none arrives more than the margin later than the quickest one.
 * A stall beyond the margin is the pace's business (`pacer.ts`), as it was before bursts.
 *
 * Late departures: the proof counts from the grant, so it needs each call to leave when granted.
 * A caller whose isolate was busy after its permit (its own RPC answer, other requests' work
 * between its `fetch` and the socket) reports when it got to the call (`departed`), and the grant
 * is counted from then instead: the window then bounds departures, whatever held them up. Callers
 * report only a call that left more than `unreportedLatenessMs` after its grant, so that much
 * lateness is already inside the margin `j` for every call; a reported call is counted from that
 * much before it left, which takes it to reach the API within the same margin of its counted time
 * as an unreported call that left as late as unreported calls may (and no more slowly on the way).
 * Counting it from when it left would leave that part of the margin unused for it: under a load
 * that makes many calls late, each would push the tenth call after it later for nothing.
 *
 * Bursts and other tenants: a request goes at once, with no spacing, while the window holds fewer
 * than the learned burst less `reserve` permits and nobody waits; the last `reserve` places of the
 * burst go at once only to a tenant with no permit in the window yet, one each (another tenant's
 * first call). So one tenant's burst into an empty window never takes the whole second at once:
 * its rest is paced (a spacing each), and until the pace hands those places on, the next `reserve`
 * tenants to call are served at once too, not after the burst ages out. Anything else queues and
 * is served round-robin at the pace, as before. "Tenant" here is a round-robin key: since lanes
 * (`lanes.ts`), a tenant's assistant is a key of its own, so its first call during its tenant's
 * burst takes a reserve place too, and so does the tenant's order run during its assistant's.
 *
 * Classes (`lanes.ts`): the first class decides on its own grants alone (its burst, its reserve,
 * its estimate), as if the watcher were not there; only the limit itself (`hasRoom`) counts every
 * grant, whatever its class, since the API counts them all. So a watcher's permit can hold a
 * caller back only where that rule binds: see `watcher-room.ts`.
 *
 * If the API answers a burst with 429s (a limit counted over a shorter window than ours, say), the
 * learned burst halves, and never stays above the depth at which the 429 came (the permit's place
 * in its window, less one); at 1 a request goes at once only into an empty window, and otherwise
 * waits its spacing: pacing, as before this module. It grows back by one every
 * `BURST_RECOVERY_MS` without a 429.
 */
import type { PermitClass } from "./lanes";

/**
 * A learned burst grows back by one permit after this long without a 429, ms: from pacing back to
 * full bursts in about 9 minutes, so an API that does reject bursts costs at most one 429 a minute
 * while the gateway probes it again, and a 429 from one stall does not cost bursts for long.
 */
export const BURST_RECOVERY_MS = 60_000;

/** The window's settings. */
export interface GrantWindowOptions {
  /** The API's limit, requests per second: the most permits the window ever holds. */
  limit: number;
  /**
   * How much later than the quickest call a call may reach the API, ms: the window spans one
   * second plus this.
   */
  transitMarginMs: number;
  /** Places of a burst kept for tenants with no permit in the window yet, 0 ≤ reserve < limit. */
  reserve: number;
  /**
   * How late after its grant a call may leave with no report from its caller, ms (0 when absent;
   * the governor's callers: `LATE_DEPARTURE_MS`, `upstream/departure.ts`): a reported departure
   * is counted from that much before it (see the module's "Late departures").
   */
  unreportedLatenessMs?: number;
}

interface Grant {
  at: number;
  /** The round-robin key it was granted to (a tenant's lane, `lanes.ts`). */
  key: string;
  cls: PermitClass;
  permit: number;
  /** How many permits the window held with this one, when it was granted (1: the first). */
  depth: number;
}

/**
 * The grants of the last `1000 + transitMarginMs` ms, and the burst the API has been seen to take.
 *
 * @see fair-queue.ts, which asks it; pacer.ts, the spacing it skips while the window has room.
 * @example
 * const w = new GrantWindow({ limit: 10, transitMarginMs: 36.7, reserve: 2 });
 * if (w.hasRoom(now) && w.mayBurst("demo:acme", now, true)) w.record(now, "demo:acme", permit);
 */
export class GrantWindow {
  readonly #reserve: number;
  readonly #unreportedLatenessMs: number;
  /** The window's length, ms. */
  readonly spanMs: number;
  /** The most permits the window holds (the API's limit). */
  readonly limit: number;
  /** Oldest first. */
  #grants: Grant[] = [];
  #learned: number;
  #learnedAt = Number.NEGATIVE_INFINITY;

  /** @throws TypeError on a limit that is no positive integer, a negative margin or a bad reserve. */
  constructor(options: GrantWindowOptions) {
    const { limit, transitMarginMs, reserve, unreportedLatenessMs = 0 } = options;
    if (!Number.isInteger(limit) || limit < 1)
      throw new TypeError(`GrantWindow: limit must be a positive integer, got ${limit}`);
    if (!(transitMarginMs >= 0))
      throw new TypeError(
        `GrantWindow: transitMarginMs must not be negative, got ${transitMarginMs}`,
      );
    if (!Number.isInteger(reserve) || reserve < 0 || reserve >= limit)
      throw new TypeError(`GrantWindow: reserve must be an integer in [0, limit), got ${reserve}`);
    if (!(unreportedLatenessMs >= 0 && unreportedLatenessMs <= transitMarginMs))
      throw new TypeError(
        `GrantWindow: unreportedLatenessMs must be in [0, transitMarginMs], got ${unreportedLatenessMs}`,
      );
    this.limit = limit;
    this.#unreportedLatenessMs = unreportedLatenessMs;
    this.#reserve = reserve;
    this.#learned = limit;
    this.spanMs = 1000 + transitMarginMs;
  }

  /** Permits granted in `(now − spanMs, now]`, of class `cls` (all classes when absent). */
  count(now: number, cls?: PermitClass): number {
    this.#prune(now);
    return cls ? this.#of(cls).length : this.#grants.length;
  }

  /** Whether one more permit at `now` keeps the window at the limit (the rule nothing bypasses). */
  hasRoom(now: number): boolean {
    return this.count(now) < this.limit;
  }

  /**
   * Whether a first-class request of round-robin key `key` may go at `now` with no spacing (given
   * `hasRoom`): into the burst less the reserve while nobody of its class waits (`idle`), or into
   * the reserve as the key's first permit of the window. Counted on the first class's grants only.
   */
  mayBurst(key: string, now: number, idle: boolean): boolean {
    const first = this.#of("first", now);
    const burst = this.burst(now);
    if (idle && first.length < burst - this.#reserve) return true;
    return first.length < burst && !first.some((g) => g.key === key);
  }

  /** Records permit `permit` of round-robin key `key`, of class `cls`, granted at `now`. */
  record(now: number, key: string, permit: number, cls: PermitClass = "first"): void {
    const depth = this.count(now) + 1;
    this.#grants.push({ at: now, key, cls, permit, depth });
  }

  /**
   * The call of `permit` left only at `at` (≤ `now`), later than its grant: the window counts it
   * from `unreportedLatenessMs` before then. False when the grant has aged out or already counts
   * from that time or later.
   */
  departed(permit: number, at: number, now: number): boolean {
    this.#prune(now);
    const i = this.#grants.findIndex((g) => g.permit === permit);
    const grant = this.#grants[i];
    const from = Math.min(at, now) - this.#unreportedLatenessMs;
    if (!grant || from <= grant.at) return false;
    this.#grants.splice(i, 1);
    // Oldest first, as `freeAt` and `#prune` expect: after the grants already counted from `from`.
    const j = this.#grants.findIndex((g) => g.at > from);
    this.#grants.splice(j === -1 ? this.#grants.length : j, 0, { ...grant, at: from });
    return true;
  }

  /**
   * The earliest time the window has room for the request with `ahead` queued before it: `now`
   * while there is room for all of them, else when enough of the oldest grants age out. Requests
   * beyond what the window holds now are left to the spacing's estimate. `cls`: counting only that
   * class's grants (the first class's estimate, which ignores the watcher's); all when absent.
   */
  roomAt(now: number, ahead = 0, cls?: PermitClass): number {
    return this.freeAt(now, this.limit, ahead, cls);
  }

  /**
   * The earliest time the window holds fewer than `cap` grants (of `cls`, or all) with `ahead` more
   * to come: `now` if it does already, else when enough of the oldest age out (the last one's
   * aging, for more than the window holds).
   */
  freeAt(now: number, cap: number, ahead = 0, cls?: PermitClass): number {
    const grants = cls ? this.#of(cls, now) : (this.#prune(now), this.#grants);
    const i = grants.length + ahead - cap;
    if (i < 0) return now;
    const grant = grants[Math.min(i, grants.length - 1)];
    return grant ? grant.at + this.spanMs : now;
  }

  /**
   * The burst the API has been seen to take at `now`: the learned one plus one for every
   * `BURST_RECOVERY_MS` since it was learned, at most the limit.
   */
  burst(now: number): number {
    const grown = Math.floor(Math.max(0, now - this.#learnedAt) / BURST_RECOVERY_MS);
    return Math.min(this.limit, this.#learned + grown);
  }

  /**
   * The pace reacted (not an echo) to a 429 for `permit` at `now`: the burst halves, and stays
   * below the depth the throttled permit had in its window, when the window still knows it.
   */
  throttled(permit: number, now: number): void {
    const current = this.burst(now);
    const depth = this.#grants.find((g) => g.permit === permit)?.depth ?? current;
    this.#learned = Math.max(1, Math.min(Math.floor(current / 2), depth - 1));
    this.#learnedAt = now;
  }

  /** The grants of `cls` in the window, oldest first (pruned at `now` when given). */
  #of(cls: PermitClass, now?: number): Grant[] {
    if (now !== undefined) this.#prune(now);
    return this.#grants.filter((g) => g.cls === cls);
  }

  #prune(now: number): void {
    let drop = 0;
    // `at + spanMs <= now`, not `at <= now - spanMs`: the same sum as `roomAt`'s, so a timer set
    // for `roomAt` always finds the place free (float rounding could otherwise differ by an ulp).
    while (drop < this.#grants.length && (this.#grants[drop]?.at ?? now) + this.spanMs <= now)
      drop++;
    if (drop > 0) this.#grants.splice(0, drop);
  }
}
