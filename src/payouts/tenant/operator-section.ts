/**
 * @module
 * The payouts' part of the operator's face: the Stripe key, the Vipps keys and what was read with
 * them, the payouts, the orders in none. The
 * face checks the registration before any method is reached.
 */
import { failOn, fail, ok, type Outcome } from "../../kernel/outcome";
import type { PayoutSource } from "../payout";
import { ownerOf, type TenantParts } from "../../tenant/parts";
import { nameOf, type TenantRecord } from "../../tenant/registration";
import type { PayoutState } from "../records";
import { modeOf, StripeKey } from "../stripe/key";
import type { PayoutView, UnpaidOrder } from "../view";
import type { Holdings } from "./payout-book";
import type { StripeKeyStatus } from "./stripe-key";
import { MAX_SINCE_DAYS, type VippsKeysInput } from "../vipps/keys";
import { vippsView, type VippsView } from "../vipps/view";
import type { VippsKeyStatus } from "./vipps-keys";

type PayoutsHost = Pick<TenantParts, "payouts" | "stripeKeys" | "vippsKeys" | "vipps" | "arm">;

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

  /** Stores the Vipps MobilePay keys, sealed, with their settings; the first read is soon after. */
  async setVippsKeys(
    r: TenantRecord,
    input: VippsKeysInput,
  ): Promise<Outcome<{ vippsKeys: VippsKeyStatus }>> {
    const now = Date.now();
    const today = new Date(now).toISOString().slice(0, 10);
    const earliest = new Date(now - MAX_SINCE_DAYS * 86_400_000).toISOString().slice(0, 10);
    const since = input.since ?? today;
    if (since > today || since < earliest)
      return failOn(
        "since",
        "bad-request",
        `The first date read is from ${earliest} to ${today} (at most ${MAX_SINCE_DAYS} days back).`,
      );
    const { clientId, clientSecret, subscriptionKey } = input;
    const settings = {
      merchantSerialNumber: input.merchantSerialNumber,
      orderSource: input.orderSource,
      referencePrefix: input.referencePrefix,
      since,
    };
    const t = this.#t;
    const secrets = { clientId, clientSecret, subscriptionKey };
    if (!(await t.vippsKeys.set(nameOf(r), secrets, settings, now)))
      return fail("misconfigured", "SECRETS_KEY is not configured.");
    t.vipps.keysChanged(now, since);
    await t.arm();
    return ok({ vippsKeys: t.vippsKeys.status() });
  }

  /** Whether Vipps keys are set, with their settings; never the keys. */
  vippsKeys(): Outcome<VippsKeyStatus> {
    return ok(this.#t.vippsKeys.status());
  }

  /** Forgets the Vipps keys; what was read and booked stays. */
  async removeVippsKeys(): Promise<Outcome<null>> {
    this.#t.vippsKeys.clear();
    await this.#t.arm();
    return ok(null);
  }

  /** The Vipps ledgers read, their dates and what is carried. */
  vipps(): Outcome<VippsView> {
    return ok(vippsView(this.#t.vippsKeys.status(), this.#t.vipps.book));
  }

  /** Reads every Vipps date due now, then answers as `vipps`. */
  async readVipps(r: TenantRecord): Promise<Outcome<VippsView>> {
    if (!this.#t.vippsKeys.status().set)
      return fail("conflict", "No Vipps keys are set for this tenant: set them first.");
    await this.#armed(this.#t.vipps.read(ownerOf(r), Date.now()));
    return this.vipps();
  }

  /** Newest change first, optionally in one state. */
  payouts(_: TenantRecord, state: PayoutState | null, limit: number): Outcome<PayoutView[]> {
    return ok(this.#t.payouts.list(state, limit));
  }

  payout(_: TenantRecord, source: PayoutSource, payoutId: string): Outcome<PayoutView> {
    return this.#t.payouts.view(source, payoutId);
  }

  retryPayout(
    r: TenantRecord,
    source: PayoutSource,
    payoutId: string,
  ): Promise<Outcome<PayoutView>> {
    return this.#armed(this.#t.payouts.retry(ownerOf(r), source, payoutId));
  }

  /** Books a payout held for `needs-orders` on the operator's word; no other face has it. */
  confirmPayout(
    r: TenantRecord,
    source: PayoutSource,
    payoutId: string,
  ): Promise<Outcome<PayoutView>> {
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
