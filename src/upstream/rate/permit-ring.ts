/**
 * @module
 * Permits granted per second over the last minute, for the console's budget chart. A fixed ring of
 * 60 counters indexed by the epoch second: memory and work stay constant however busy the
 * environment is, and nothing is stored (like the rest of the governor, it is a view of now).
 */

/** How many seconds the ring keeps: the chart's last minute. */
export const RING_SECONDS = 60;

/**
 * Counts per epoch second in a ring. A slot is reused when its second comes round again, so a slot
 * also remembers which second it counts; a stale one reads as zero.
 *
 * @example
 * const ring = new PermitRing();
 * ring.add(Date.now());
 * ring.series(Date.now()); // 60 numbers, oldest first, the current second last
 */
export class PermitRing {
  readonly #counts = new Uint32Array(RING_SECONDS);
  readonly #seconds = new Float64Array(RING_SECONDS).fill(-1);

  /** Counts one event at `now` (epoch ms). */
  add(now: number): void {
    const second = Math.floor(now / 1000);
    const slot = second % RING_SECONDS;
    if (this.#seconds[slot] !== second) {
      this.#seconds[slot] = second;
      this.#counts[slot] = 0;
    }
    this.#counts[slot] = (this.#counts[slot] ?? 0) + 1;
  }

  /** The counts of the last `RING_SECONDS` seconds up to `now`, oldest first. */
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
