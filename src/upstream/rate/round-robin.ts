/**
 * @module Waiting requests, one queue per key (a lane), served round-robin, one per key per turn:
 * one key's backlog cannot starve another's single call. `fair-queue.ts` decides when, this whose.
 */

export interface Waiting {
  tenant: string;
}

/**
 * @example
 * rr.push("demo:a", a1); rr.push("demo:a", a2); rr.push("demo:b", b1);
 * rr.shift(); rr.shift(); rr.shift(); // a1, b1, a2
 */
export class RoundRobin<W extends Waiting> {
  #queues = new Map<string, W[]>();
  #ring: string[] = [];

  push(key: string, w: W): void {
    const queue = this.#queues.get(key);
    if (queue) queue.push(w);
    else {
      this.#queues.set(key, [w]);
      this.#ring.push(key);
    }
  }

  /** The request whose turn it is, taken out; its key goes to the back. */
  shift(): { key: string; waiting: W } | undefined {
    const key = this.#ring.shift();
    if (key === undefined) return undefined;
    const queue = this.#queues.get(key) ?? [];
    const waiting = queue.shift();
    if (queue.length > 0) this.#ring.push(key);
    else this.#queues.delete(key);
    return waiting && { key, waiting };
  }

  remove(gone: (w: W) => boolean): { key: string; waiting: W }[] {
    const removed: { key: string; waiting: W }[] = [];
    for (const [key, queue] of this.#queues) {
      const keep = queue.filter((w) => !gone(w));
      for (const w of queue) if (gone(w)) removed.push({ key, waiting: w });
      if (keep.length > 0) this.#queues.set(key, keep);
      else {
        this.#queues.delete(key);
        this.#ring = this.#ring.filter((k) => k !== key);
      }
    }
    return removed;
  }

  has(key: string): boolean {
    return this.#queues.has(key);
  }

  /** Requests served before a new one of `key`: its own, and at most one more from every other. */
  ahead(key: string): number {
    const mine = this.#queues.get(key)?.length ?? 0;
    let n = mine;
    for (const [other, q] of this.#queues) if (other !== key) n += Math.min(q.length, mine + 1);
    return n;
  }

  *all(): IterableIterator<W> {
    for (const q of this.#queues.values()) yield* q;
  }

  byKey(): Record<string, number> {
    return Object.fromEntries([...this.#queues].map(([key, q]) => [key, q.length]));
  }

  get size(): number {
    let n = 0;
    for (const q of this.#queues.values()) n += q.length;
    return n;
  }

  get keys(): number {
    return this.#ring.length;
  }
}
