/**
 * @module
 * Client addresses as the inbound limit counts them, and what one isolate has seen refused: the
 * addresses over a limit, and the gateway keys that failed (by their hash; see
 * `tenant/door/failed-keys.ts`). Pure: every method takes the time (epoch ms), so tests drive the
 * clock.
 */

/** Most addresses remembered at once: a bound on memory under a flood from many addresses. */
export const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * The key a client address is counted under: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber's network: whoever holds one holds 2^64 addresses, so counting single addresses
 * would count nothing), an IPv4-mapped IPv6 address as its IPv4 address. Null for no address.
 *
 * @example addressKey("2001:db8:1:2::7") // "2001:db8:1:2::/64"
 */
export function addressKey(ip: string): string | null {
  const a = ip.trim().toLowerCase();
  if (a === "") return null;
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/.exec(a);
  if (mapped?.[1]) return mapped[1];
  if (!a.includes(":")) return a.slice(0, 64);
  const [head = "", tail, ...more] = a.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups =
    tail === undefined
      ? left
      : [
          ...left,
          ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"),
          ...right,
        ];
  if (more.length > 0 || groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)))
    return a.slice(0, 64);
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * The keys (addresses, or failed gateway keys' hashes) this isolate has seen refused, each until
 * its block ends. The rate limiting binding
 * only counts (every `limit()` call adds one), so it cannot be asked "is this address over?"
 * without spending; remembering its "no" here lets the isolate refuse the rest of a flood at no
 * cost and without reaching any Durable Object. Other isolates learn it from the binding at their
 * next failure.
 */
export class BlockedAddresses {
  readonly #until = new Map<string, number>();

  constructor(private readonly max = MAX_BLOCKED_ADDRESSES) {}

  /**
   * Whether nothing is remembered (ended blocks not yet forgotten count as something): then no key
   * is blocked, and a caller need not even work out the key it would ask about.
   */
  get empty(): boolean {
    return this.#until.size === 0;
  }

  /** Whole seconds left in `key`'s block, 0 when it is not blocked. */
  secondsLeft(key: string, now: number): number {
    const until = this.#until.get(key);
    if (until === undefined) return 0;
    if (until > now) return Math.ceil((until - now) / 1000);
    this.#until.delete(key);
    return 0;
  }

  /** Blocks `key` for `ms`. When full, forgets ended blocks first, then the oldest. */
  block(key: string, ms: number, now: number): void {
    this.#until.delete(key);
    if (this.#until.size >= this.max) {
      for (const [k, until] of this.#until) if (until <= now) this.#until.delete(k);
      const oldest = this.#until.keys().next();
      if (this.#until.size >= this.max && !oldest.done) this.#until.delete(oldest.value);
    }
    this.#until.set(key, now + ms);
  }
}
