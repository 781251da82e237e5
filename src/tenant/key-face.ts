/**
 * @module
 * The tenant object's face for the holder of a gateway key: what every checked holder opens
 * (`holder-ops.ts`), and what only a key opens (retries, payouts, approving an OAuth grant).
 * `grantKey` checks the key once and hands out a `KeyFace` or a `RefusedKeyFace` with the same
 * methods, each answering `unauthorized`. See docs/design/faces.md.
 */
import type { RpcTarget } from "cloudflare:workers";
import type { Source } from "../orders/order";
import type { OrderRunView } from "../orders/run-view";
import { fail, ok, type Outcome } from "../kernel/outcome";
import type { PayoutSource } from "../payouts/payout";
import type { PayoutState } from "../payouts/records";
import type { PayoutView, UnpaidOrder } from "../payouts/view";
import type { TenantName } from "../kernel/stubs";
import { addGrant, type GrantAsk, type GrantView } from "./grant-face";
import type { MatchedKey } from "./gateway-keys";
import { refusing } from "./refusing";
import { HolderFace, type HolderParts, type TenantHolder } from "./holder-ops";
import type { RunOwner } from "../orders/tenant/order-desk";
import { ownerOf, type TenantParts } from "./parts";

/** What the holder of a gateway key may do with its tenant's object. */
export interface KeyHolder extends TenantHolder {
  /** A new attempt for a failed order (or its failed refunds). */
  retryOrder(source: Source, orderId: string): Promise<Outcome<OrderRunView>>;
  payout(source: PayoutSource, payoutId: string): Promise<Outcome<PayoutView>>;
  payouts(state: PayoutState | null, limit: number): Promise<Outcome<PayoutView[]>>;
  /** A new attempt for an unmatched or failed payout. */
  retryPayout(source: PayoutSource, payoutId: string): Promise<Outcome<PayoutView>>;
  /** Orders settled to a clearing account and in no payout after the mapping's days. */
  unpaidOrders(limit: number): Promise<Outcome<{ afterDays: number; orders: UnpaidOrder[] }>>;
  /** The key's tenant: the approval page's check of a typed key (no token, nothing written). */
  tenant(): Promise<Outcome<TenantName>>;
  /** Records an OAuth grant the key's holder approved: the key may hand a part of its power on. */
  grantAssistant(ask: GrantAsk): Promise<Outcome<GrantView>>;
}

/** What `Tenant.forKey` hands out: a `KeyFace` or a `RefusedKeyFace`, told apart by nothing. */
export type KeyHolderFace = KeyHolder & RpcTarget;

type KeyParts = HolderParts & Pick<TenantParts, "payouts" | "grants">;

/**
 * The one check of a gateway key (`GatewayKeys.check`, while the tenant is registered), then a face
 * bound to that match and registration, taken anew for each pipelined call.
 */
export async function grantKey(
  parts: KeyParts & Pick<TenantParts, "registration" | "keys">,
  gatewayKey: string,
): Promise<KeyHolderFace> {
  const r = parts.registration.get();
  const key = r && (await parts.keys.check(gatewayKey, Date.now()));
  return r && key ? new KeyFace(parts, key, ownerOf(r)) : new RefusedKeyFace();
}

/** A checked key's face: every method acts at once. */
class KeyFace extends HolderFace implements KeyHolder {
  readonly #parts: KeyParts;
  readonly #owner: RunOwner;

  /** `access` needs the match itself: an isolate may not cache it past its retirement. */
  constructor(parts: KeyParts, key: MatchedKey, owner: RunOwner) {
    super(parts, owner, key.retiresAt);
    this.#parts = parts;
    this.#owner = owner;
  }

  async retryOrder(source: Source, orderId: string): Promise<Outcome<OrderRunView>> {
    const run = await this.#parts.desk.retry(this.#owner, source, orderId);
    await this.#parts.arm();
    return run;
  }

  async tenant(): Promise<Outcome<TenantName>> {
    return ok(this.#owner.tenant);
  }

  async payout(source: PayoutSource, payoutId: string): Promise<Outcome<PayoutView>> {
    return this.#parts.payouts.view(source, payoutId);
  }

  async payouts(state: PayoutState | null, limit: number): Promise<Outcome<PayoutView[]>> {
    return ok(this.#parts.payouts.list(state, limit));
  }

  async retryPayout(source: PayoutSource, payoutId: string): Promise<Outcome<PayoutView>> {
    const retried = await this.#parts.payouts.retry(this.#owner, source, payoutId);
    await this.#parts.arm();
    return retried;
  }

  async unpaidOrders(
    limit: number,
  ): Promise<Outcome<{ afterDays: number; orders: UnpaidOrder[] }>> {
    return ok(this.#parts.payouts.unpaid(Date.now(), limit));
  }

  async grantAssistant(ask: GrantAsk): Promise<Outcome<GrantView>> {
    return addGrant(this.#parts, this.#owner, ask);
  }
}

/** Why a key failed (unknown, retired, no tenant) is never told. */
const REFUSED = fail("unauthorized", "The gateway key is not valid.");

const RefusedKeyFace = refusing(KeyFace, REFUSED);
