/**
 * @module
 * What a gateway key and an OAuth grant both open of their tenant, once checked: the `/v2`
 * pipeline's state, the order runs (read only) and prepared writes. Written once, as the base of
 * both faces, so a tool call under a grant reaches exactly what it would under a key
 * (docs/design/faces.md).
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

export interface ClaimAsk {
  keyHash: string;
  fingerprint: string;
  recheck: boolean;
  leaseUntil: number;
}

export interface FinishAsk {
  keyHash: string;
  holder: string;
  how: Finish;
}

export interface ReadAsk {
  key: string;
  resource: string;
  refresh: boolean;
}

export interface KeepAsk {
  key: string;
  resource: string;
  generation: number;
  answer: StoredAnswer;
}

export interface Kept {
  storedAt: number;
  expiresAt: number;
}

export interface TakeAsk {
  handleHash: string;
  principal: string;
}

/** What a checked holder, key or grant, may do; a refused face answers `unauthorized` to each. */
export interface TenantHolder {
  /** A token, with how long an isolate may serve a copy of it (`upstream/access-cache.ts`). */
  access(): Promise<Outcome<KeyAccess>>;
  orderRun(source: Source, orderId: string): Promise<Outcome<OrderRunView>>;
  orderRuns(state: RunState | null, limit: number): Promise<Outcome<OrderRunView[]>>;
  /** Claims an idempotency key for a `/v2` write (`v2/shaping/idempotency.ts`). */
  idempotencyClaim(ask: ClaimAsk): Promise<Outcome<Claim>>;
  /** Ends a claim; false when it had lapsed to another caller. */
  idempotencyFinish(ask: FinishAsk): Promise<Outcome<boolean>>;
  /** A cached reference answer, or the generation a fresh read is kept under. */
  referenceRead(ask: ReadAsk): Promise<Outcome<ReferenceRead>>;
  /** Keeps a reference answer unless its resource was written since `generation`. */
  referenceKeep(ask: KeepAsk): Promise<Outcome<Kept | null>>;
  /** Forgets, in one call, the cached reads and remembered codes a `/v2` write made stale. */
  forgetWritten(stale: { resource: string | null; kinds: string[] }): Promise<Outcome<null>>;
  /** The ids still trusted for codes a `/v2` write gave (`v2/shaping/code-refs.ts`). */
  codeIds(keys: CodeKey[]): Promise<Outcome<CodeId[]>>;
  rememberCodeIds(found: CodeId[]): Promise<Outcome<null>>;
  /** Forgets remembered ids the API refused a write with. */
  forgetCodeIds(keys: CodeKey[]): Promise<Outcome<null>>;
  /** Keeps a prepared write under its handle's hash for the current registration. */
  confirmationStash(ask: StashAsk): Promise<Outcome<{ expiresAt: number }>>;
  confirmationTake(ask: TakeAsk): Promise<Outcome<Taken>>;
}

export type HolderParts = Pick<
  TenantParts,
  "tokens" | "desk" | "idempotency" | "references" | "codeIds" | "confirmations" | "arm"
>;

/** The base of the key's and the grant's faces; RPC reaches its methods through theirs. */
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

  /** Never cached past the token's renewal window, the key's retirement or the grant's end. */
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
