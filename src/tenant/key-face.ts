/**
 * @module
 * The tenant object's face for the holder of one of its gateway keys (a `/v2`, `/orders` or MCP
 * caller, and the person approving an assistant's connection with the key): what every checked
 * holder opens (`holder-ops.ts`: a token, the `/v2` shaping state, the runs, prepared writes), and
 * what only a key opens: a failed run's retry, and approving an OAuth grant for its tenant.
 * `grantKey` checks the key once and hands out either a `KeyFace`, whose methods take no key, or a
 * `RefusedKeyFace`, whose methods all answer the same `unauthorized` failure; both have the same
 * methods, so a call pipelined on `forKey(k)` reads the same either way and a failed check
 * reaches the caller as the usual 401 problem, never as an exception (nothing of a stack or a key
 * crosses back).
 */
import type { RpcTarget } from "cloudflare:workers";
import type { Source } from "../orders/order";
import type { OrderRunView } from "../orders/run-view";
import { fail, ok, type Outcome } from "../kernel/outcome";
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
  /** One payout's reconciliation. */
  payout(source: Source, payoutId: string): Promise<Outcome<PayoutView>>;
  /** The tenant's payouts, newest change first, optionally in one state. */
  payouts(state: PayoutState | null, limit: number): Promise<Outcome<PayoutView[]>>;
  /** A new attempt for an unmatched or failed payout. */
  retryPayout(source: Source, payoutId: string): Promise<Outcome<PayoutView>>;
  /** Orders settled to a clearing account and in no payout after the mapping's days. */
  unpaidOrders(limit: number): Promise<Outcome<{ afterDays: number; orders: UnpaidOrder[] }>>;
  /**
   * The tenant the key is for: the approval page's check of a typed key before anything is
   * approved (no token, no upstream call, nothing written).
   */
  tenant(): Promise<Outcome<TenantName>>;
  /**
   * Records an OAuth grant the key's holder approved for an assistant (`assistant-grants.ts`):
   * the key holds the tenant's whole power, so it may hand a part of it on.
   */
  grantAssistant(ask: GrantAsk): Promise<Outcome<GrantView>>;
}

/** What `Tenant.forKey` hands out: a `KeyFace` or a `RefusedKeyFace`, told apart by nothing. */
export type KeyHolderFace = KeyHolder & RpcTarget;

/** What a key holder's face reads of the tenant: a holder's, the payouts and the grants. */
type KeyParts = HolderParts & Pick<TenantParts, "payouts" | "grants">;

/**
 * The one check of a gateway key, for every call that needs one: the live key it matched (in
 * constant time, `GatewayKeys.check`) while the tenant is registered, and then a face bound to that
 * match and that registration. A face is meant for the call pipelined on it
 * (`stub.forKey(k).orderRun(…)`): each call takes a new one, so a key that retired or a tenant
 * that was removed is refused at the next call, as when every method checked the key itself.
 */
export async function grantKey(
  parts: KeyParts & Pick<TenantParts, "registration" | "keys">,
  gatewayKey: string,
): Promise<KeyHolderFace> {
  const r = parts.registration.get();
  const key = r && (await parts.keys.check(gatewayKey, Date.now()));
  return r && key ? new KeyFace(parts, key, ownerOf(r)) : new RefusedKeyFace();
}

/**
 * A checked key's face: what every holder opens (`HolderFace`), and what only a key opens. Every
 * method acts at once, the key was checked when the face was made.
 */
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

  async grantAssistant(ask: GrantAsk): Promise<Outcome<GrantView>> {
    return addGrant(this.#parts, this.#owner, ask);
  }
}

/**
 * Which of the keys failed, and why (unknown, retired, no tenant), is never told: the same detail
 * for all.
 */
const REFUSED = fail("unauthorized", "The gateway key is not valid.");

/** A key that did not check out: every method answers `REFUSED` and touches nothing. */
const RefusedKeyFace = refusing(KeyFace, REFUSED);
