/**
 * @module The isolate's copies of verified gateway keys' (and grants') tokens, so a warm call
 * skips the tenant's object. Invariant: a copy serves only its own tenant, at most
 * `ACCESS_CACHE_MS` after the object's answer. See docs/design/rate-governor.md.
 */
import { sha256Hex } from "../kernel/crypto";
import type { Outcome } from "../kernel/outcome";
import type { TenantName } from "../kernel/stubs";

/** The longest a change made through another isolate (a removal, a new key) goes unseen, ms. */
export const ACCESS_CACHE_MS = 15_000;
/** A copy this old is refreshed in the background by the next call to use it, ms. */
export const ACCESS_REFRESH_AFTER_MS = 10_000;
export const ACCESS_CACHE_MAX_ENTRIES = 1_000;

export interface KeyAccess {
  token: string;
  expiresAt: number;
  /** Ms from receipt, not an epoch time: the object's clock and this isolate's need not agree. */
  cacheMs: number;
}

interface Entry {
  tenant: TenantName;
  token: string;
  expiresAt: number;
  at: number;
  until: number;
  refreshing: boolean;
}

/**
 * How long a copy may serve, ms: never past `servesUntil` (its renewal window) or `retiresAt`.
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

/** The default `now` reads `Date` at each call, so a test's fake `Date` reaches it. */
export class AccessCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = () => Date.now(),
    private readonly maxEntries = ACCESS_CACHE_MAX_ENTRIES,
  ) {}

  /**
   * A live copy unless `fresh`, else `ask`'s answer (a refusal drops the copy); `background`
   * (`ctx.waitUntil`) refreshes an old copy after answering from it.
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

  /** Drops every copy of `token` (the API answered 401 to it). */
  dropToken(token: string): void {
    for (const [id, e] of this.#entries) if (e.token === token) this.#entries.delete(id);
  }

  /** Drops every copy for `tenant` (removed, or its keys changed through this isolate). */
  dropTenant(tenant: TenantName): void {
    for (const [id, e] of this.#entries) if (e.tenant === tenant) this.#entries.delete(id);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Applies the new answer only while `entry` is still the copy: a dropped key stays dropped. */
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

  #evict(): void {
    const now = this.now();
    for (const [id, e] of this.#entries) if (e.until <= now) this.#entries.delete(id);
    for (const id of this.#entries.keys()) {
      if (this.#entries.size < this.maxEntries) break;
      this.#entries.delete(id);
    }
  }
}
