/**
 * @module
 * The payouts' part of the operator's face: the Stripe key, the payouts, the orders in none. The
 * face checks the registration before any method is reached.
 */
import { failOn, fail, ok, type Outcome } from "../../kernel/outcome";
import type { Source } from "../../orders/order";
import { ownerOf, type TenantParts } from "../../tenant/parts";
import { nameOf, type TenantRecord } from "../../tenant/registration";
import type { PayoutState } from "../records";
import { modeOf, StripeKey } from "../stripe/key";
import type { PayoutView, UnpaidOrder } from "../view";
import type { Holdings } from "./payout-book";
import type { StripeKeyStatus } from "./stripe-key";

type PayoutsHost = Pick<TenantParts, "payouts" | "stripeKeys" | "arm">;

export class PayoutsSection {
  readonly #t: PayoutsHost;

  constructor(t: PayoutsHost) {
    this.#t = t;
  }

  /** Stores the Stripe key, sealed, and restarts every payout that waited for one. */
  async setStripeKey(
    r: TenantRecord,
    key: string,
  ): Promise<Outcome<{ stripeKey: StripeKeyStatus; payoutsRestarted: number }>> {
    const checked = StripeKey.safeParse(key);
    if (!checked.success)
      return failOn(
        "key",
        "bad-request",
        checked.error.issues[0]?.message ?? "Not a Stripe restricted key.",
      );
    const t = this.#t;
    if (!(await t.stripeKeys.set(nameOf(r), key, modeOf(key), Date.now())))
      return fail("misconfigured", "SECRETS_KEY is not configured.");
    const payoutsRestarted = await t.payouts.keyChanged(ownerOf(r));
    await t.arm();
    return ok({ stripeKey: t.stripeKeys.status(), payoutsRestarted });
  }

  /** Whether a Stripe key is set, its mode and when; never the key. */
  stripeKey(): Outcome<StripeKeyStatus> {
    return ok(this.#t.stripeKeys.status());
  }

  /** Forgets the Stripe key: payouts read from Stripe then wait for a new one. */
  removeStripeKey(): Outcome<null> {
    this.#t.stripeKeys.clear();
    return ok(null);
  }

  /** Newest change first, optionally in one state. */
  payouts(_: TenantRecord, state: PayoutState | null, limit: number): Outcome<PayoutView[]> {
    return ok(this.#t.payouts.list(state, limit));
  }

  payout(_: TenantRecord, source: Source, payoutId: string): Outcome<PayoutView> {
    return this.#t.payouts.view(source, payoutId);
  }

  retryPayout(r: TenantRecord, source: Source, payoutId: string): Promise<Outcome<PayoutView>> {
    return this.#armed(this.#t.payouts.retry(ownerOf(r), source, payoutId));
  }

  /** Books a payout held for `needs-orders` on the operator's word; no other face has it. */
  confirmPayout(r: TenantRecord, source: Source, payoutId: string): Promise<Outcome<PayoutView>> {
    return this.#armed(this.#t.payouts.confirm(ownerOf(r), source, payoutId));
  }

  /** Orders settled to a clearing account and in no payout after the mapping's days. */
  unpaidOrders(
    _: TenantRecord,
    limit: number,
  ): Outcome<{ afterDays: number; orders: UnpaidOrder[] }> {
    return ok(this.#t.payouts.unpaid(Date.now(), limit));
  }

  /** What each clearing account holds by the tenant's records, and what of it is due. */
  clearingHeld(): Outcome<Holdings> {
    return ok(this.#t.payouts.held(Date.now()));
  }

  /** `answer`, once the alarm is armed for what it stored. */
  async #armed<T>(answer: Promise<T>): Promise<T> {
    const a = await answer;
    await this.#t.arm();
    return a;
  }
}
