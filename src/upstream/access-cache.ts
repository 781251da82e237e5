/**
 * @module
 * The isolate's short memory of verified gateway keys: a key (filed under its SHA-256, never the
 * key itself) → the token its tenant's object handed out for it, so that a warm `/v2` call skips
 * the tenant's object and takes one Durable Object hop (the rate governor's) instead of two. An MCP
 * tool's calls under an OAuth grant use it too, filed under `grant:<id>`: the MCP door asks the
 * tenant's object about the grant on every request, so a copy only spares that request's calls.
 *
 * Why this may be stale, and by how much: the tenant's object is the only judge of a key, and a
 * copy here cannot hear about a change made through another isolate (a tenant removed, a key
 * retired, a client key replaced). So a copy lives at most `ACCESS_CACHE_MS`, and never past what
 * the object itself allows for it (`cacheMs`: the start of the token's renewal window, see
 * `upstream/token-timing.ts`, and the key's retirement). Changes made through *this* isolate's
 * admin routes drop the tenant's copies at once (`dropTenant`). A 401 from the API drops every copy
 * of that token (`dropToken`) before the object is told to invalidate it.
 *
 * Refresh ahead: a call that finds a copy older than `ACCESS_REFRESH_AFTER_MS` is answered from it
 * and asks the tenant's object again in the background (`ctx.waitUntil`), so a key in steady use
 * never waits for that hop: a tenant-object round trip that one call in every `ACCESS_CACHE_MS`
 * still paid (1–3 ms locally, on about 2.5 % of the calls of `npm run bench -- latency`'s steady
 * caller, so in its 99th percentile). The bound holds as before: each copy is served at most
 * `ACCESS_CACHE_MS` after the object's own answer (the refresh's answer makes a new copy, with its
 * own bound), and a refresh whose copy was dropped meanwhile (a change through this isolate, a 401)
 * keeps nothing, so it cannot bring a dropped key back.
 *
 * Isolation: an entry names its tenant, and `access` serves it only to a call for that same tenant
 * (a key names its tenant, so this is a second check, not the first). Single-flight of token
 * requests stays in the tenant's object: a miss here is an ordinary `access` call there.
 *
 * No module state (lib keeps none): the one instance per isolate is created in `src/index.ts` and
 * handed to the routes on the request's context (`tenant/door/access-cache.ts`).
 */
import { sha256Hex } from "../kernel/crypto";
import type { Outcome } from "../kernel/outcome";
import type { TenantName } from "../kernel/stubs";

/**
 * The longest an isolate serves a verified key from memory, ms: the bound on how long a removal,
 * a key's retirement or a client-key replacement made through another isolate can go unseen here.
 * 15 s is shorter than an operator takes to act on a leaked key and check it stopped working, and
 * long enough that a caller making one call a second asks the tenant's object on 1 call in 15.
 */
export const ACCESS_CACHE_MS = 15_000;
/**
 * A copy this old is refreshed in the background by the next call that uses it, ms: 5 s before it
 * would lapse, so a caller making a call every 5 s or more often never waits for the tenant's
 * object. Its cost: a key in steady use is checked every 10 s instead of every 15.
 */
export const ACCESS_REFRESH_AFTER_MS = 10_000;
/**
 * Entries kept at most: only keys that authenticated get one (one or two per tenant), so this is a
 * guard, not a working limit.
 */
export const ACCESS_CACHE_MAX_ENTRIES = 1_000;

/**
 * A token the tenant's object handed out for a key, with how long (ms, from receipt) a copy may be
 * served.
 */
export interface KeyAccess {
  token: string;
  expiresAt: number;
  /** Relative, not an epoch time: the object's clock and this isolate's need not agree. */
  cacheMs: number;
}

interface Entry {
  tenant: TenantName;
  token: string;
  expiresAt: number;
  /** When the object's answer came, epoch ms on this isolate's clock. */
  at: number;
  /** Epoch ms, on this isolate's clock. */
  until: number;
  /** A background refresh of this copy is on its way. */
  refreshing: boolean;
}

/**
 * How long a copy of a key's token may be served, ms: at most `ACCESS_CACHE_MS`, and never past
 * `servesUntil` (the token's renewal window starts: a renewed token must reach callers) or the
 * key's `retiresAt` (null: it does not retire). 0: not at all.
 *
 * @example cacheMs(now, { servesUntil: now + 600_000, retiresAt: now + 4_000 }) // 4000
 */
export function cacheMs(
  now: number,
  limits: { servesUntil: number; retiresAt: number | null },
): number {
  return Math.max(
    0,
    Math.min(
      ACCESS_CACHE_MS,
      limits.servesUntil - now,
      (limits.retiresAt ?? Number.POSITIVE_INFINITY) - now,
    ),
  );
}

/**
 * The isolate's cache of verified keys; `now` comes in so that tests drive the clock. The default
 * reads `Date` at each call (not `Date.now` taken once), so a test's fake `Date` reaches it too.
 */
export class AccessCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = () => Date.now(),
    private readonly maxEntries = ACCESS_CACHE_MAX_ENTRIES,
  ) {}

  /**
   * The token for `gatewayKey` of `tenant`: a live copy, unless `fresh`; otherwise `ask` (the
   * key holder's face's `access`: the face is handed out only for an authentic key), whose answer
   * is kept for its `cacheMs` (a refusal drops any copy). With `background` (the request's
   * `ctx.waitUntil`), a copy older than `ACCESS_REFRESH_AFTER_MS` is also refreshed there, after
   * this call is answered from it.
   *
   * @example await cache.access(t, key, () => asKeyHolder(env, { tenant: t, key }, (f) =>
   * f.access()))
   */
  async access(
    tenant: TenantName,
    gatewayKey: string,
    ask: () => Promise<Outcome<KeyAccess>>,
    fresh = false,
    background?: (refresh: Promise<void>) => void,
  ): Promise<Outcome<KeyAccess>> {
    const id = await sha256Hex(gatewayKey);
    const hit = fresh ? null : this.#live(id, tenant);
    if (hit) {
      if (background && !hit.refreshing && this.now() - hit.at >= ACCESS_REFRESH_AFTER_MS) {
        hit.refreshing = true;
        background(this.#refresh(id, hit, ask));
      }
      return {
        ok: true,
        value: { token: hit.token, expiresAt: hit.expiresAt, cacheMs: hit.until - this.now() },
      };
    }
    const answer = await ask();
    if (answer.ok) this.#put(id, tenant, answer.value);
    else this.#entries.delete(id);
    return answer;
  }

  /**
   * Drops every copy of `token` (the API answered 401 to it): every key of its tenant asks the
   * object again.
   */
  dropToken(token: string): void {
    for (const [id, e] of this.#entries) if (e.token === token) this.#entries.delete(id);
  }

  /**
   * Drops every copy for `tenant` (removed, a key rotated, or its client key replaced through this
   * isolate).
   */
  dropTenant(tenant: TenantName): void {
    for (const [id, e] of this.#entries) if (e.tenant === tenant) this.#entries.delete(id);
  }

  /** How many entries are held (expired ones included until they are next touched). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Asks the object again for the key of `entry` (filed under `id`), and applies the answer only
   * while `entry` is still the key's copy: one dropped or replaced meanwhile stays so. A failed ask
   * (the object unreachable) leaves the copy to its bound, and the next call may try again.
   */
  async #refresh(id: string, entry: Entry, ask: () => Promise<Outcome<KeyAccess>>): Promise<void> {
    const answer = await ask().catch(() => null);
    if (this.#entries.get(id) !== entry) return;
    if (answer === null) entry.refreshing = false;
    else if (answer.ok) this.#put(id, entry.tenant, answer.value);
    else this.#entries.delete(id);
  }

  #live(id: string, tenant: TenantName): Entry | null {
    const e = this.#entries.get(id);
    if (!e) return null;
    if (e.tenant === tenant && this.now() < e.until) return e;
    this.#entries.delete(id);
    return null;
  }

  #put(id: string, tenant: TenantName, a: KeyAccess): void {
    this.#entries.delete(id);
    // Clamped here too: the bound is this isolate's promise, whatever an answer says.
    const ms = Math.min(a.cacheMs, ACCESS_CACHE_MS);
    if (!(ms > 0)) return;
    if (this.#entries.size >= this.maxEntries) this.#evict();
    const at = this.now();
    this.#entries.set(id, {
      tenant,
      token: a.token,
      expiresAt: a.expiresAt,
      at,
      until: at + ms,
      refreshing: false,
    });
  }

  /** Makes room: expired entries first, then the oldest (a Map iterates in insertion order). */
  #evict(): void {
    const now = this.now();
    for (const [id, e] of this.#entries) if (e.until <= now) this.#entries.delete(id);
    for (const id of this.#entries.keys()) {
      if (this.#entries.size < this.maxEntries) break;
      this.#entries.delete(id);
    }
  }
}
