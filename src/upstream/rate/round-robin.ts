/**
 * @module
 * Waiting requests, one queue per key, served round-robin: the next request comes from the key
 * whose turn it is, one per key per turn, each key's requests in the order they came. No clock, no
 * pace: `fair-queue.ts` decides when a request may go, this decides whose.
 *
 * Why a key rather than a tenant: a key is a lane (`lanes.ts`): a tenant's callers are one key, so
 * one tenant's backlog cannot starve another's single call, and its assistant is another, served
 * round-robin like any other. The watcher, a class of lower priority, is a second `RoundRobin`
 * that is served only when the first is empty. The rules of one turn stay in this one place.
 */

/** A waiting request: whatever the queue's owner keeps, with the tenant it counts against. */
export interface Waiting {
  tenant: string;
}

/**
 * Queues per key in serving order.
 *
 * @example
 * const rr = new RoundRobin<{ tenant: string; id: number }>();
 * rr.push("demo:a", { tenant: "demo:a", id: 1 });
 * rr.push("demo:b", { tenant: "demo:b", id: 2 });
 * rr.shift(); // demo:a's; the next shift is demo:b's
 */
export class RoundRobin<W extends Waiting> {
  #queues = new Map<string, W[]>();
  /** Keys with requests waiting, in serving order; the head is served next. */
  #ring: string[] = [];

  /** Queues `w` under `key`, behind that key's earlier requests; a new key joins at the end. */
  push(key: string, w: W): void {
    const queue = this.#queues.get(key);
    if (queue) queue.push(w);
    else {
      this.#queues.set(key, [w]);
      this.#ring.push(key);
    }
  }

  /** The request whose turn it is, taken out; its key goes to the back of the ring. */
  shift(): { key: string; waiting: W } | undefined {
    const key = this.#ring.shift();
    if (key === undefined) return undefined;
    const queue = this.#queues.get(key) ?? [];
    const waiting = queue.shift();
    if (queue.length > 0) this.#ring.push(key);
    else this.#queues.delete(key);
    return waiting && { key, waiting };
  }

  /** Takes out every request `gone` says is gone (a passed deadline), in queue order. */
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

  /** Whether `key` has requests waiting. */
  has(key: string): boolean {
    return this.#queues.has(key);
  }

  /**
   * Requests served before a new one of `key` under round-robin: its key's own, and from every
   * other key at most one more than that.
   */
  ahead(key: string): number {
    const mine = this.#queues.get(key)?.length ?? 0;
    let n = mine;
    for (const [other, q] of this.#queues) if (other !== key) n += Math.min(q.length, mine + 1);
    return n;
  }

  /** Every waiting request, for scans (the soonest deadline). */
  *all(): IterableIterator<W> {
    for (const q of this.#queues.values()) yield* q;
  }

  /** How many wait, per key with any waiting. */
  byKey(): Record<string, number> {
    return Object.fromEntries([...this.#queues].map(([key, q]) => [key, q.length]));
  }

  /** How many wait, over all keys. */
  get size(): number {
    let n = 0;
    for (const q of this.#queues.values()) n += q.length;
    return n;
  }

  /** How many keys have requests waiting. */
  get keys(): number {
    return this.#ring.length;
  }
}
