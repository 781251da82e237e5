/**
 * @module The permits of the last second plus the transit margin. Invariant: a permit is granted
 * at `g` only while fewer than `limit` lie in `(g − spanMs, g]`, so no second at the API counts
 * more than `limit`. The proof: docs/design/rate-governor.md.
 */
import type { PermitClass } from "./lanes";

/** A learned burst grows back by one permit after this long without a 429, ms. */
export const BURST_RECOVERY_MS = 60_000;

export interface GrantWindowOptions {
  limit: number;
  /** How much later than the quickest call a call may reach the API, ms. */
  transitMarginMs: number;
  /** Places of a burst kept for tenants with no permit in the window yet, 0 ≤ reserve < limit. */
  reserve: number;
  /** How late after its grant a call may leave unreported, ms (`LATE_DEPARTURE_MS`; default 0). */
  unreportedLatenessMs?: number;
}

interface Grant {
  at: number;
  key: string;
  cls: PermitClass;
  permit: number;
  depth: number;
}

/** @example if (w.hasRoom(now) && w.mayBurst(key, now, true)) w.record(now, key, permit); */
export class GrantWindow {
  readonly #reserve: number;
  readonly #unreportedLatenessMs: number;
  readonly spanMs: number;
  readonly limit: number;
  /** Oldest first. */
  #grants: Grant[] = [];
  #learned: number;
  #learnedAt = Number.NEGATIVE_INFINITY;

  /** @throws TypeError on a limit that is no positive integer, a negative margin, a bad reserve. */
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

  count(now: number, cls?: PermitClass): number {
    this.#prune(now);
    return cls ? this.#of(cls).length : this.#grants.length;
  }

  /** Whether one more permit at `now` keeps the window at the limit (the rule nothing bypasses). */
  hasRoom(now: number): boolean {
    return this.count(now) < this.limit;
  }

  /** Whether a first-class request of `key` may go unspaced: into the burst, or the reserve. */
  mayBurst(key: string, now: number, idle: boolean): boolean {
    const first = this.#of("first", now);
    const burst = this.burst(now);
    if (idle && first.length < burst - this.#reserve) return true;
    return first.length < burst && !first.some((g) => g.key === key);
  }

  record(now: number, key: string, permit: number, cls: PermitClass = "first"): void {
    const depth = this.count(now) + 1;
    this.#grants.push({ at: now, key, cls, permit, depth });
  }

  /** `permit`'s call left late, at `at`: it counts from then, less `unreportedLatenessMs`. */
  departed(permit: number, at: number, now: number): boolean {
    this.#prune(now);
    const i = this.#grants.findIndex((g) => g.permit === permit);
    const grant = this.#grants[i];
    const from = Math.min(at, now) - this.#unreportedLatenessMs;
    if (!grant || from <= grant.at) return false;
    this.#grants.splice(i, 1);
    // Kept oldest first, as `freeAt` and `#prune` expect.
    const j = this.#grants.findIndex((g) => g.at > from);
    this.#grants.splice(j === -1 ? this.#grants.length : j, 0, { ...grant, at: from });
    return true;
  }

  roomAt(now: number, ahead = 0, cls?: PermitClass): number {
    return this.freeAt(now, this.limit, ahead, cls);
  }

  freeAt(now: number, cap: number, ahead = 0, cls?: PermitClass): number {
    const grants = cls ? this.#of(cls, now) : (this.#prune(now), this.#grants);
    const i = grants.length + ahead - cap;
    if (i < 0) return now;
    const grant = grants[Math.min(i, grants.length - 1)];
    return grant ? grant.at + this.spanMs : now;
  }

  burst(now: number): number {
    const grown = Math.floor(Math.max(0, now - this.#learnedAt) / BURST_RECOVERY_MS);
    return Math.min(this.limit, this.#learned + grown);
  }

  /** The pace reacted to a 429 for `permit`: the burst halves, and stays below its depth. */
  throttled(permit: number, now: number): void {
    const current = this.burst(now);
    const depth = this.#grants.find((g) => g.permit === permit)?.depth ?? current;
    this.#learned = Math.max(1, Math.min(Math.floor(current / 2), depth - 1));
    this.#learnedAt = now;
  }

  #of(cls: PermitClass, now?: number): Grant[] {
    if (now !== undefined) this.#prune(now);
    return this.#grants.filter((g) => g.cls === cls);
  }

  #prune(now: number): void {
    let drop = 0;
    // `at + spanMs <= now`: the same sum as `roomAt`'s, so a timer set for it finds the place free
    // (float rounding could otherwise differ by an ulp).
    while (drop < this.#grants.length && (this.#grants[drop]?.at ?? now) + this.spanMs <= now)
      drop++;
    if (drop > 0) this.#grants.splice(0, drop);
  }
}
