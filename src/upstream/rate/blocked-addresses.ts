/**
 * @module Client addresses as the inbound limit counts them, and the addresses and failed gateway
 * keys (by hash: `tenant/door/failed-keys.ts`) one isolate has seen refused.
 */

/** Most addresses remembered at once: a bound on memory under a flood from many addresses. */
export const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * The key a client address is counted under: IPv4 as it is, IPv6 by its /64 (one subscriber holds
 * all 2^64 of them), IPv4-mapped IPv6 as IPv4. Null for no address.
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
 * Keys this isolate saw refused, until each block ends: the rate limiting binding cannot be asked
 * without spending, so this refuses the rest of a flood at no cost.
 */
export class BlockedAddresses {
  readonly #until = new Map<string, number>();

  constructor(private readonly max = MAX_BLOCKED_ADDRESSES) {}

  /** Nothing remembered: no key is blocked, and a caller need not even work out its key. */
  get empty(): boolean {
    return this.#until.size === 0;
  }

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
