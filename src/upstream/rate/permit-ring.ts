/**
 * @module Permits granted per second over the last minute, for the console's chart: a fixed ring
 * of counters by epoch second, so memory and work stay constant however busy the environment is.
 */

export const RING_SECONDS = 60;

/**
 * Counts per epoch second; each slot remembers which second it counts, so a stale one reads 0.
 * @example ring.add(Date.now()); ring.series(Date.now()); // 60 counts, oldest first
 */
export class PermitRing {
  readonly #counts = new Uint32Array(RING_SECONDS);
  readonly #seconds = new Float64Array(RING_SECONDS).fill(-1);

  add(now: number): void {
    const second = Math.floor(now / 1000);
    const slot = second % RING_SECONDS;
    if (this.#seconds[slot] !== second) {
      this.#seconds[slot] = second;
      this.#counts[slot] = 0;
    }
    this.#counts[slot] = (this.#counts[slot] ?? 0) + 1;
  }

  series(now: number): number[] {
    const current = Math.floor(now / 1000);
    const out: number[] = [];
    for (let s = current - RING_SECONDS + 1; s <= current; s++) {
      const slot = s % RING_SECONDS;
      out.push(this.#seconds[slot] === s ? (this.#counts[slot] ?? 0) : 0);
    }
    return out;
  }
}
