/**
 * @module
 * The tenant object's face for the holder of one of its gateway keys (a `/v2`, `/orders` caller):
 * a token, the caller's order runs, and the per-tenant state of `/v2` shaping (idempotency records,
 * the reference cache, codes → ids). `grantKey` checks the key once and hands out either a
 * `KeyFace`, whose methods take no key, or a `RefusedKeyFace`, whose methods all answer the same
 * `unauthorized` failure; both have the same methods, so a call pipelined on `withKey(k)` reads the
 * same either way and a failed check reaches the caller as the usual 401 problem, never as an
 * exception (nothing of a stack or a key crosses back).
 */
import { RpcTarget } from "cloudflare:workers";
import type { Source } from "../../lib/orders/order";
import type { OrderRunView } from "../../lib/orders/run-view";
import type { RunState } from "../../lib/orders/runs";
import { fail, ok, type Outcome } from "../../lib/outcome";
import type { PayoutState } from "../../lib/payouts/records";
import type { PayoutView, UnpaidOrder } from "../../lib/payouts/view";
import type { CodeId, CodeKey } from "../../lib/shaping/code-refs";
import type { StoredAnswer } from "../../lib/shaping/stored-answer";
import { cacheMs, type KeyAccess } from "../../lib/upstream/access-cache";
import type { MatchedKey } from "./gateway-keys";
import type { Claim, Finish } from "./idempotency-keys";
import type { RunOwner } from "./order-desk";
import { ownerOf, type TenantParts } from "./parts";
import type { ReferenceRead } from "./reference-cache";
import type { StashAsk, Taken } from "./write-confirmations";

/** An idempotency claim's question: the key's hash, the request's fingerprint, the lease. */
export interface ClaimAsk {
  keyHash: string;
  fingerprint: string;
  recheck: boolean;
  leaseUntil: number;
}

/** How a claim ends, and which holder ends it. */
export interface FinishAsk {
  keyHash: string;
  holder: string;
  how: Finish;
}

/** A reference read: its cache key, its resource, and whether the caller wants it fresh. */
export interface ReadAsk {
  key: string;
  resource: string;
  refresh: boolean;
}

/** A reference answer to keep, read under `generation`. */
export interface KeepAsk {
  key: string;
  resource: string;
  generation: number;
  answer: StoredAnswer;
}

/** When a kept reference answer was stored and when it expires. */
export interface Kept {
  storedAt: number;
  expiresAt: number;
}

/** A confirmation's question: the handle's hash and who confirms. */
export interface TakeAsk {
  handleHash: string;
  principal: string;
}

/** What the holder of a gateway key may do with its tenant's object. */
export interface KeyHolder {
  /**
   * A token for the caller's API call, with how long an isolate may serve a copy of it to this key
   * without asking again (`cacheMs`: never past the key's retirement or the token's renewal
   * window; see `lib/upstream/access-cache.ts`).
   */
  access(): Promise<Outcome<KeyAccess>>;
  /** One order's run. */
  orderRun(source: Source, orderId: string): Promise<Outcome<OrderRunView>>;
  /** The tenant's runs, newest change first, optionally in one state. */
  orderRuns(state: RunState | null, limit: number): Promise<Outcome<OrderRunView[]>>;
  /** A new attempt for a failed order (or its failed refunds). */
  retryOrder(source: Source, orderId: string): Promise<Outcome<OrderRunView>>;
  /** One payout's reconciliation. */
  payout(source: Source, payoutId: string): Promise<Outcome<PayoutView>>;
  /** The tenant's payouts, newest change first, optionally in one state. */
  payouts(state: PayoutState | null, limit: number): Promise<Outcome<PayoutView[]>>;
  /** A new attempt for an unmatched or failed payout. */
  retryPayout(source: Source, payoutId: string): Promise<Outcome<PayoutView>>;
  /** Orders settled to a clearing account and in no payout after the mapping's days. */
  unpaidOrders(limit: number): Promise<Outcome<{ afterDays: number; orders: UnpaidOrder[] }>>;
  /**
   * Claims an idempotency key for a `/v2` write (`lib/shaping/idempotency.ts`): first, a replay,
   * or why not.
   */
  idempotencyClaim(ask: ClaimAsk): Promise<Outcome<Claim>>;
  /**
   * Ends a claim with the answer, an unknown outcome, or a release; false when the claim had
   * lapsed to another caller.
   */
  idempotencyFinish(ask: FinishAsk): Promise<Outcome<boolean>>;
  /**
   * A cached reference answer, or the generation a fresh read will be kept under
   * (`lib/shaping/reference-cache.ts`).
   */
  referenceRead(ask: ReadAsk): Promise<Outcome<ReferenceRead>>;
  /**
   * Keeps a reference answer read under `generation`, unless its resource was written since;
   * answers when it was kept and expires, or null.
   */
  referenceKeep(ask: KeepAsk): Promise<Outcome<Kept | null>>;
  /** Forgets the cached answers of a resource a write went to. */
  /**
   * Forgets what a `/v2` write may have made stale, in one call: the cached reads of `resource`
   * (null: not a cached one) and the remembered codes of `kinds` (`lib/shaping/written.ts`).
   */
  forgetWritten(stale: { resource: string | null; kinds: string[] }): Promise<Outcome<null>>;
  /** The ids still trusted for codes a `/v2` write gave (`lib/shaping/code-refs.ts`). */
  codeIds(keys: CodeKey[]): Promise<Outcome<CodeId[]>>;
  /** Remembers ids a lookup found for codes. */
  rememberCodeIds(found: CodeId[]): Promise<Outcome<null>>;
  /** Forgets remembered ids the API refused a write with. */
  forgetCodeIds(keys: CodeKey[]): Promise<Outcome<null>>;
  /**
   * Keeps a write an assistant prepared under its confirmation handle's hash, for the current
   * registration (`write-confirmations.ts`); answers when it expires unconfirmed.
   */
  confirmationStash(ask: StashAsk): Promise<Outcome<{ expiresAt: number }>>;
  /** The prepared write of a handle, for its principal: ready (first or again), expired, unknown. */
  confirmationTake(ask: TakeAsk): Promise<Outcome<Taken>>;
}

/** What `Tenant.withKey` hands out: a `KeyFace` or a `RefusedKeyFace`, told apart by nothing. */
export type KeyHolderFace = KeyHolder & RpcTarget;

/**
 * The one check of a gateway key, for every call that needs one: the live key it matched (in
 * constant time, `GatewayKeys.check`) while the tenant is registered, and then a face bound to that
 * match and that registration. A face is meant for the call pipelined on it
 * (`stub.withKey(k).orderRun(…)`): each call takes a new one, so a key that retired or a tenant
 * that was removed is refused at the next call, as when every method checked the key itself.
 */
export async function grantKey(parts: TenantParts, gatewayKey: string): Promise<KeyHolderFace> {
  const r = parts.registration.get();
  const key = r && (await parts.keys.check(gatewayKey, Date.now()));
  return r && key ? new KeyFace(parts, key, ownerOf(r)) : new RefusedKeyFace();
}

/** A checked key's face: every method acts at once, the key was checked when it was made. */
class KeyFace extends RpcTarget implements KeyHolder {
  readonly #parts: TenantParts;
  /** `access` needs the match itself: an isolate may not cache it past its retirement. */
  readonly #key: MatchedKey;
  readonly #owner: RunOwner;

  constructor(parts: TenantParts, key: MatchedKey, owner: RunOwner) {
    super();
    this.#parts = parts;
    this.#key = key;
    this.#owner = owner;
  }

  async access(): Promise<Outcome<KeyAccess>> {
    const tokens = this.#parts.tokens;
    const a = await tokens.access();
    return a.ok
      ? ok({
          ...a.value,
          cacheMs: cacheMs(Date.now(), {
            servesUntil: tokens.servesUntil(a.value.token),
            retiresAt: this.#key.retiresAt,
          }),
        })
      : a;
  }

  async orderRun(source: Source, orderId: string): Promise<Outcome<OrderRunView>> {
    return this.#parts.desk.view(source, orderId);
  }

  async orderRuns(state: RunState | null, limit: number): Promise<Outcome<OrderRunView[]>> {
    return ok(this.#parts.desk.list(state, limit));
  }

  async retryOrder(source: Source, orderId: string): Promise<Outcome<OrderRunView>> {
    const run = await this.#parts.desk.retry(this.#owner, source, orderId);
    await this.#parts.arm();
    return run;
  }

  async payout(source: Source, payoutId: string): Promise<Outcome<PayoutView>> {
    return this.#parts.payouts.view(source, payoutId);
  }

  async payouts(state: PayoutState | null, limit: number): Promise<Outcome<PayoutView[]>> {
    return ok(this.#parts.payouts.list(state, limit));
  }

  async retryPayout(source: Source, payoutId: string): Promise<Outcome<PayoutView>> {
    const retried = await this.#parts.payouts.retry(this.#owner, source, payoutId);
    await this.#parts.arm();
    return retried;
  }

  async unpaidOrders(
    limit: number,
  ): Promise<Outcome<{ afterDays: number; orders: UnpaidOrder[] }>> {
    return ok(this.#parts.payouts.unpaid(Date.now(), limit));
  }

  async idempotencyClaim(ask: ClaimAsk): Promise<Outcome<Claim>> {
    // Synchronous: no other claim runs between this one's read and its insert.
    const claim = this.#parts.idempotency.claim(
      ask.keyHash,
      ask.fingerprint,
      ask.recheck,
      ask.leaseUntil,
      Date.now(),
    );
    if (claim.kind === "first") await this.#parts.arm();
    return ok(claim);
  }

  async idempotencyFinish(ask: FinishAsk): Promise<Outcome<boolean>> {
    return ok(this.#parts.idempotency.finish(ask.keyHash, ask.holder, ask.how));
  }

  async referenceRead(ask: ReadAsk): Promise<Outcome<ReferenceRead>> {
    return ok(this.#parts.references.read(ask.key, ask.resource, ask.refresh, Date.now()));
  }

  async referenceKeep(ask: KeepAsk): Promise<Outcome<Kept | null>> {
    const kept = this.#parts.references.keep(
      ask.key,
      ask.resource,
      ask.generation,
      ask.answer,
      Date.now(),
    );
    if (kept) await this.#parts.arm();
    return ok(kept);
  }

  async forgetWritten(stale: { resource: string | null; kinds: string[] }): Promise<Outcome<null>> {
    if (stale.resource !== null) this.#parts.references.forget(stale.resource);
    this.#parts.codeIds.forgetKinds(stale.kinds);
    return ok(null);
  }

  async codeIds(keys: CodeKey[]): Promise<Outcome<CodeId[]>> {
    return ok(this.#parts.codeIds.recall(keys, Date.now()));
  }

  async rememberCodeIds(found: CodeId[]): Promise<Outcome<null>> {
    this.#parts.codeIds.remember(found, Date.now());
    return ok(null);
  }

  async forgetCodeIds(keys: CodeKey[]): Promise<Outcome<null>> {
    this.#parts.codeIds.forget(keys);
    return ok(null);
  }

  async confirmationStash(ask: StashAsk): Promise<Outcome<{ expiresAt: number }>> {
    const kept = this.#parts.confirmations.stash(ask, this.#owner.registration, Date.now());
    await this.#parts.arm();
    return ok(kept);
  }

  async confirmationTake(ask: TakeAsk): Promise<Outcome<Taken>> {
    const taken = this.#parts.confirmations.take(
      ask.handleHash,
      ask.principal,
      this.#owner.registration,
      Date.now(),
    );
    // A first confirmation keeps the row a day longer: the alarm follows.
    if (taken.kind === "ready" && taken.first) await this.#parts.arm();
    return ok(taken);
  }
}

/**
 * Which of the keys failed, and why (unknown, retired, no tenant), is never told: the same detail
 * for all.
 */
const REFUSED = fail("unauthorized", "The gateway key is not valid.");

/**
 * A key that did not check out: every method answers `REFUSED` and touches nothing. It holds no
 * part of the tenant, so it cannot reach anything even by mistake.
 */
class RefusedKeyFace extends RpcTarget implements KeyHolder {
  async access() {
    return REFUSED;
  }
  async orderRun() {
    return REFUSED;
  }
  async orderRuns() {
    return REFUSED;
  }
  async retryOrder() {
    return REFUSED;
  }
  async payout() {
    return REFUSED;
  }
  async payouts() {
    return REFUSED;
  }
  async retryPayout() {
    return REFUSED;
  }
  async unpaidOrders() {
    return REFUSED;
  }
  async idempotencyClaim() {
    return REFUSED;
  }
  async idempotencyFinish() {
    return REFUSED;
  }
  async referenceRead() {
    return REFUSED;
  }
  async referenceKeep() {
    return REFUSED;
  }
  async forgetWritten() {
    return REFUSED;
  }
  async codeIds() {
    return REFUSED;
  }
  async rememberCodeIds() {
    return REFUSED;
  }
  async forgetCodeIds() {
    return REFUSED;
  }
  async confirmationStash() {
    return REFUSED;
  }
  async confirmationTake() {
    return REFUSED;
  }
}
