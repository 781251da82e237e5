/**
 * @module
 * What a gateway key and an OAuth grant both open of their tenant, once checked: the state of the
 * `/v2` pipeline (a token, idempotency records, the reference cache, codes → ids), the order runs
 * (read only) and an assistant's prepared writes. Written once, as the base of the key holder's
 * face (`key-face.ts`) and the grant's (`grant-face.ts`), so the two cannot drift apart: a tool
 * call under a grant reaches exactly what the same call under a key reaches.
 */
import { RpcTarget } from "cloudflare:workers";
import type { Source } from "../orders/order";
import type { OrderRunView } from "../orders/run-view";
import type { RunState } from "../orders/runs";
import { ok, type Outcome } from "../kernel/outcome";
import type { CodeId, CodeKey } from "../v2/shaping/code-refs";
import type { StoredAnswer } from "../v2/shaping/stored-answer";
import { cacheMs, type KeyAccess } from "../upstream/access-cache";
import type { Claim, Finish } from "../v2/tenant/idempotency-keys";
import type { RunOwner } from "../orders/tenant/order-desk";
import type { TenantParts } from "./parts";
import { keepReference } from "../v2/tenant/operator-section";
import type { ReferenceRead } from "../v2/tenant/reference-cache";
import type { StashAsk, Taken } from "../assistants/tenant/write-confirmations";

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

/**
 * What a checked holder, key or grant, may do with its tenant's object. Every method answers an
 * `Outcome`; a face that did not check out answers `unauthorized` from each.
 */
export interface TenantHolder {
  /**
   * A token for the holder's API call, with how long an isolate may serve a copy of it to this
   * holder without asking again (`cacheMs`, see `upstream/access-cache.ts`).
   */
  access(): Promise<Outcome<KeyAccess>>;
  /** One order's run. */
  orderRun(source: Source, orderId: string): Promise<Outcome<OrderRunView>>;
  /** The tenant's runs, newest change first, optionally in one state. */
  orderRuns(state: RunState | null, limit: number): Promise<Outcome<OrderRunView[]>>;
  /**
   * Claims an idempotency key for a `/v2` write (`v2/shaping/idempotency.ts`): first, a replay,
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
   * (`v2/shaping/reference-cache.ts`).
   */
  referenceRead(ask: ReadAsk): Promise<Outcome<ReferenceRead>>;
  /**
   * Keeps a reference answer read under `generation`, unless its resource was written since;
   * answers when it was kept and expires, or null.
   */
  referenceKeep(ask: KeepAsk): Promise<Outcome<Kept | null>>;
  /**
   * Forgets what a `/v2` write may have made stale, in one call: the cached reads of `resource`
   * (null: not a cached one) and the remembered codes of `kinds` (`v2/shaping/written.ts`).
   */
  forgetWritten(stale: { resource: string | null; kinds: string[] }): Promise<Outcome<null>>;
  /** The ids still trusted for codes a `/v2` write gave (`v2/shaping/code-refs.ts`). */
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

/** What every holder's face reads of the tenant: the `/v2` pipeline's state and the runs. */
export type HolderParts = Pick<
  TenantParts,
  "tokens" | "desk" | "idempotency" | "references" | "codeIds" | "confirmations" | "arm"
>;

/**
 * The face of a checked holder, key or grant: every method of `TenantHolder`, written once. The key
 * holder's and the grant's faces extend it with what only they open; Workers RPC reaches the
 * methods of every prototype up to `RpcTarget`, so each face exposes these as its own.
 */
export abstract class HolderFace extends RpcTarget implements TenantHolder {
  readonly #parts: HolderParts;
  readonly #owner: RunOwner;
  /** When an isolate's copy of a token must go at the latest: a key's retirement, a grant's end. */
  readonly #retiresAt: number | null;

  constructor(parts: HolderParts, owner: RunOwner, retiresAt: number | null) {
    super();
    this.#parts = parts;
    this.#owner = owner;
    this.#retiresAt = retiresAt;
  }

  /**
   * A token, with how long an isolate may serve a copy of it without asking again: never past the
   * token's renewal window nor the key's retirement or the grant's end (see
   * `upstream/access-cache.ts`).
   */
  async access(): Promise<Outcome<KeyAccess>> {
    const tokens = this.#parts.tokens;
    const a = await tokens.access();
    return a.ok
      ? ok({
          ...a.value,
          cacheMs: cacheMs(Date.now(), {
            servesUntil: tokens.servesUntil(a.value.token),
            retiresAt: this.#retiresAt,
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
    return keepReference(this.#parts, ask);
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
    if (kept.ok) await this.#parts.arm();
    return kept;
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
