/**
 * @module Whose fault a token-endpoint refusal is, the tenant's client key or the environment's
 * keys (both are answered `400 invalid_client`): docs/design/rate-governor.md.
 */

/** Distinct tenants whose proven keys are refused, no token issued since, that make it suspect. */
export const SUSPECT_TENANTS = 2;
/** Refusals older than this are forgotten, ms: a token's lifetime (every active tenant renews). */
export const REFUSAL_MEMORY_MS = 20 * 60_000;

export type Verdict = "tenant" | "environment" | "unproven";

export interface RefusalVerdict {
  verdict: Verdict;
  refusedTenants: number;
}

interface Streak {
  /** The event that began this tenant's refusals (its first refusal since its last token). */
  firstSeq: number;
  lastSeq: number;
  lastAt: number;
}

/**
 * @example
 * h.refused("demo:a", true, now); // { verdict: "unproven", refusedTenants: 1 }
 * h.refused("demo:b", true, now); // { verdict: "environment", refusedTenants: 2 }
 */
export class KeyHealth {
  #seq = 0;
  #lastIssuedSeq = 0;
  readonly #streaks = new Map<string, Streak>();

  /** A token was issued to `tenant`: the environment's keys work, and its refusals are over. */
  issued(tenant: string, now: number): void {
    this.#forget(now);
    this.#lastIssuedSeq = ++this.#seq;
    this.#streaks.delete(tenant);
  }

  /** Only a `proven` key's refusal counts against the environment: a new key may be mistyped. */
  refused(tenant: string, proven: boolean, now: number): RefusalVerdict {
    this.#forget(now);
    if (!proven) {
      const refusedTenants = this.#refusedSinceIssued();
      return {
        verdict: refusedTenants >= SUSPECT_TENANTS ? "environment" : "tenant",
        refusedTenants,
      };
    }
    const seq = ++this.#seq;
    const streak = this.#streaks.get(tenant) ?? { firstSeq: seq, lastSeq: seq, lastAt: now };
    streak.lastSeq = seq;
    streak.lastAt = now;
    this.#streaks.set(tenant, streak);
    const refusedTenants = this.#refusedSinceIssued();
    if (refusedTenants >= SUSPECT_TENANTS) return { verdict: "environment", refusedTenants };
    return {
      verdict: this.#lastIssuedSeq > streak.firstSeq ? "tenant" : "unproven",
      refusedTenants,
    };
  }

  view(now: number): { suspect: boolean; refusedTenants: number } {
    this.#forget(now);
    const refusedTenants = this.#refusedSinceIssued();
    return { suspect: refusedTenants >= SUSPECT_TENANTS, refusedTenants };
  }

  #refusedSinceIssued(): number {
    let n = 0;
    for (const s of this.#streaks.values()) if (s.lastSeq > this.#lastIssuedSeq) n++;
    return n;
  }

  #forget(now: number): void {
    for (const [tenant, s] of this.#streaks)
      if (now - s.lastAt > REFUSAL_MEMORY_MS) this.#streaks.delete(tenant);
  }
}
