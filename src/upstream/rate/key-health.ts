/**
 * @module
 * Whose fault a token-endpoint refusal is: the tenant's client key, or the environment's own keys
 * (application key, subscription key). The token endpoint answers both with the same
 * `400 invalid_client`, so one refusal cannot tell them apart; the environment's other token
 * requests can. No timers, no storage: every method takes the time (epoch ms), so tests drive the
 * clock, and `upstream/rate-governor.ts` keeps one of these per environment.
 *
 * The rule. A refusal of a key that worked before (a *proven* key) is the tenant's fault only when
 * another token was issued in the environment after this tenant's refusals began: then the
 * environment's keys demonstrably work. When at least `SUSPECT_TENANTS` tenants' proven keys were
 * refused since the last token issued, the environment is *suspect*: a deploy with a mistyped
 * application key, or a lapsed subscription, refuses everyone at once. Otherwise the verdict is
 * *unproven*: the tenant backs off and asks again, and the next token anyone gets settles it.
 * A first refusal is never final, so a broken environment cannot mark a tenant rejected for good
 * before a second tenant's refusal shows what is going on; and nothing is remembered across a
 * deploy (a deploy restarts the object), so a fixed configuration starts with a clean slate.
 *
 * "After" is the order in which the governor heard of the events, counted, not their times: the
 * clock of a Worker reads the same millisecond for events that arrive close together (it moves
 * only between I/O events), and with bursts (`grant-window.ts`) another tenant's token request no
 * longer waits a spacing (104 ms) for its permit, so its issuance can be heard in the very
 * millisecond of a refusal. Compared by time, such a token was "not after" the refusal and the
 * verdict stayed unproven (or, heard just before, it would have been taken for after). The one
 * object hears every event of its environment in one order, so a sequence number is exact. Times
 * are kept only to forget old refusals.
 */

/**
 * Distinct tenants whose proven keys are refused, with no token issued in between, that make the
 * environment suspect.
 */
export const SUSPECT_TENANTS = 2;
/**
 * Refusals older than this are forgotten, ms: a token's lifetime (20 min), within which every
 * active tenant renews once.
 */
export const REFUSAL_MEMORY_MS = 20 * 60_000;

/** Whose fault a refusal is: the tenant's key, the environment's keys, or not yet known. */
export type Verdict = "tenant" | "environment" | "unproven";

/** A verdict, and how many tenants' proven keys were refused since the last token issued. */
export interface RefusalVerdict {
  verdict: Verdict;
  refusedTenants: number;
}

interface Streak {
  /** The event that began this tenant's refusals (its first refusal since its last token). */
  firstSeq: number;
  /** Its latest refusal: the event, and when (to forget it). */
  lastSeq: number;
  lastAt: number;
}

/**
 * The token-endpoint health of one environment.
 *
 * @example
 * const h = new KeyHealth();
 * h.refused("demo:a", true, now);  // { verdict: "unproven", refusedTenants: 1 }
 * h.refused("demo:b", true, now);  // { verdict: "environment", refusedTenants: 2 }
 * h.issued("demo:c", now + 1);     // the keys work again: nothing is suspect
 */
export class KeyHealth {
  /** The events heard so far: issuances and refusals, in the order they arrived. */
  #seq = 0;
  /** The event of the last token issued (0: none yet). */
  #lastIssuedSeq = 0;
  readonly #streaks = new Map<string, Streak>();

  /**
   * A token was issued to `tenant`: the environment's keys work, and the tenant's own refusals are
   * over.
   */
  issued(tenant: string, now: number): void {
    this.#forget(now);
    this.#lastIssuedSeq = ++this.#seq;
    this.#streaks.delete(tenant);
  }

  /**
   * The token endpoint refused `tenant`'s key. Only a `proven` key's refusal (one that got a token
   * before) counts as evidence against the environment: a new key at registration may simply be
   * mistyped. An unproven key is the tenant's fault unless the environment is already suspect.
   */
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

  /**
   * Whether the environment's keys are suspect now, and how many tenants were refused since the
   * last token issued.
   */
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

  /**
   * Drops streaks with no refusal for `REFUSAL_MEMORY_MS`, so the map stays as small as the set of
   * broken tenants.
   */
  #forget(now: number): void {
    for (const [tenant, s] of this.#streaks)
      if (now - s.lastAt > REFUSAL_MEMORY_MS) this.#streaks.delete(tenant);
  }
}
