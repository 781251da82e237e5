/**
 * @module
 * The tenant object's face for the operator: the admin API, the console and onboarding. It takes no
 * credential, because the object cannot check one: the Worker's admin token or console session is
 * the authority, checked before any of these methods is reached (see `Tenant.operator`).
 */
import { RpcTarget } from "cloudflare:workers";
import type { OrderMapping, OrderMappingInput } from "../ledger/mapping";
import type { Source } from "../orders/order";
import type { OrderRunView } from "../orders/run-view";
import type { RunState } from "../orders/runs";
import { fail, failOn, ok, type Outcome } from "../kernel/outcome";
import type { PayoutState } from "../payouts/records";
import type { PayoutView, UnpaidOrder } from "../payouts/view";
import type { ClearedRecords, Enrolment, Registering } from "./enrolment";
import { viewOf, type GrantView } from "../assistants/tenant/assistant-grants";
import { addGrant, type GrantAsk } from "./grant-face";
import type { KeepAsk, Kept, ReadAsk } from "./holder-ops";
import type { ReferenceRead } from "../v2/tenant/reference-cache";
import type { SecretOptions, SecretSet } from "../orders/tenant/order-settings";
import type { ShopBinding } from "../orders/tenant/shop-pins";
import type { StripeKeyStatus } from "../payouts/tenant/stripe-key";
import { modeOf, StripeKey } from "../payouts/stripe/key";
import type { ShopView, WebhookSetup } from "../orders/tenant/webhook-setup";
import { NO_TENANT, ownerOf, type TenantParts } from "./parts";
import { nameOf, type ApiClient } from "./registration";
import type { CallCounters, LoggedRow, StatusFilter } from "../request-log/tenant-rows";
import type { ToolCallRow } from "../assistants/tenant/tool-calls";
import type { WebhookStatus } from "../orders/tenant/webhook-status";
import { webhookStatus } from "../orders/tenant/webhook-status";

/** The operator's face of one tenant object. */
export class OperatorFace extends RpcTarget {
  readonly #parts: TenantParts;
  readonly #enrolment: Enrolment;
  readonly #webhooks: WebhookSetup;

  constructor(parts: TenantParts, enrolment: Enrolment, webhooks: WebhookSetup) {
    super();
    this.#parts = parts;
    this.#enrolment = enrolment;
    this.#webhooks = webhooks;
  }

  /**
   * Registers the tenant, checking the client key by asking for a token first. Nothing is stored
   * on refusal.
   */
  register(input: Registering): Promise<Outcome<{ gatewayKey: string }>> {
    return this.#enrolment.register(input);
  }

  /**
   * The current registration's id, for an operator action that calls the API as this tenant
   * (offboarding: `onboarding/offboard.ts`).
   */
  registrationId(): Outcome<string> {
    const r = this.#parts.registration.get();
    return r ? ok(r.registrationId) : fail("not-found", NO_TENANT);
  }

  /**
   * A new gateway key; the others keep working for `graceSeconds`. A grace that is not a whole
   * number ≥ 0 is refused before anything is stored: it would make the old keys' retirement NaN,
   * which SQLite keeps as NULL, "never".
   */
  async rotateGatewayKey(
    graceSeconds: number,
  ): Promise<Outcome<{ gatewayKey: string; previousKeysRetireAt: string }>> {
    if (!Number.isSafeInteger(graceSeconds) || graceSeconds < 0)
      return fail("bad-request", "graceSeconds must be a whole number of seconds, 0 or more.");
    const r = this.#parts.registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const now = Date.now();
    const retiresAt = now + graceSeconds * 1000;
    const gatewayKey = await this.#parts.keys.rotate(r.environment, r.client, now, retiresAt);
    return ok({ gatewayKey, previousKeysRetireAt: new Date(retiresAt).toISOString() });
  }

  /**
   * Replaces the client key (after the client re-activated the integration); checked like at
   * registration. Answers what was dropped of the old books.
   */
  replaceClientKey(clientKey: string): Promise<Outcome<{ cleared: ClearedRecords }>> {
    return this.#enrolment.replace(clientKey);
  }

  /**
   * Removes the tenant: its running order runs are terminated, every table is emptied in one
   * transaction, and the alarm is deleted. A run that escapes termination finds its registration
   * gone at its next step and stops there.
   */
  async remove(): Promise<Outcome<null>> {
    const p = this.#parts;
    const r = p.registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const stopping = Promise.all([p.desk.stopAll(ownerOf(r)), p.payouts.stopAll(ownerOf(r))]);
    p.storage.transactionSync(() => {
      p.desk.book.clear();
      p.payouts.book.clear();
      p.paymentRefs.clear();
      p.stripeKeys.clear();
      p.settings.clear();
      p.pins.clear();
      p.known.clear();
      p.codeIds.clear();
      p.idempotency.clear();
      p.references.clear();
      p.log.clear();
      p.toolCalls.clear();
      p.confirmations.clear();
      p.grants.clear();
      p.tokens.clear();
      p.keys.clear();
      p.registration.clear();
    });
    await stopping;
    await p.storage.deleteAlarm();
    return ok(null);
  }

  /** What an operator may see: never a secret, not even part of one. */
  describe() {
    const p = this.#parts;
    const r = p.registration.get();
    if (!r) return null;
    const t = p.tokens.view();
    return {
      tenant: nameOf(r),
      environment: r.environment,
      client: r.client,
      name: r.name,
      createdAt: r.createdAt,
      ...t,
      counters: { ...t.counters, keyChecks: p.keys.checks },
      callCounters: storedCounters(p.log.counters()),
      gatewayKeys: p.keys.list(Date.now()),
    };
  }

  /**
   * Stores a source's webhook secret, sealed, and for Shopify the shop it is bound to (required,
   * and refused when another tenant holds this secret on that shop); with `graceSeconds`, a
   * rotation (`WebhookSetup.configure`).
   */
  async setWebhookSecret(
    source: Source,
    secret: string,
    opts: SecretOptions = {},
  ): Promise<Outcome<SecretSet>> {
    const r = this.#parts.registration.get();
    return r
      ? this.#webhooks.configure(nameOf(r), source, secret, opts, Date.now())
      : fail("not-found", NO_TENANT);
  }

  /**
   * Stores the tenant's Stripe key, sealed (a restricted key; `payouts/stripe/key.ts` says why no
   * other), and starts a new attempt of every payout that waited for one. The key is never
   * answered, here or anywhere: only whether one is set, its mode and when.
   */
  async setStripeKey(
    key: string,
  ): Promise<Outcome<{ stripeKey: StripeKeyStatus; payoutsRestarted: number }>> {
    const r = this.#parts.registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const checked = StripeKey.safeParse(key);
    if (!checked.success)
      return failOn(
        "key",
        "bad-request",
        checked.error.issues[0]?.message ?? "Not a Stripe restricted key.",
      );
    const p = this.#parts;
    if (!(await p.stripeKeys.set(nameOf(r), key, modeOf(key), Date.now())))
      return fail("misconfigured", "SECRETS_KEY is not configured.");
    const payoutsRestarted = await p.payouts.keyChanged(ownerOf(r));
    await p.arm();
    return ok({ stripeKey: p.stripeKeys.status(), payoutsRestarted });
  }

  /** Whether a Stripe key is set, its mode and when; never the key. */
  stripeKey(): Outcome<StripeKeyStatus> {
    return this.#parts.registration.get()
      ? ok(this.#parts.stripeKeys.status())
      : fail("not-found", NO_TENANT);
  }

  /** Forgets the Stripe key: payouts read from Stripe wait for a new one (`needs-key`). */
  removeStripeKey(): Outcome<null> {
    if (!this.#parts.registration.get()) return fail("not-found", NO_TENANT);
    this.#parts.stripeKeys.clear();
    return ok(null);
  }

  /**
   * Confirms the shop a first delivery pinned before shops were bound by the operator: `shop` as
   * the console showed it becomes the operator's binding.
   */
  async confirmShop(source: Source, shop: string): Promise<Outcome<ShopBinding>> {
    const r = this.#parts.registration.get();
    return r ? this.#webhooks.confirmShop(nameOf(r), source, shop) : fail("not-found", NO_TENANT);
  }

  /** Each shop-naming source's bound shop (and by whom) and its last refused delivery. */
  shops(): Outcome<ShopView[]> {
    return this.#parts.registration.get()
      ? ok(this.#webhooks.view())
      : fail("not-found", NO_TENANT);
  }

  /** Stores the order mapping; answers it with the defaults filled in. */
  setOrderMapping(input: OrderMappingInput): Outcome<OrderMapping> {
    return this.#parts.registration.get()
      ? ok(this.#parts.settings.setMapping(input))
      : fail("not-found", NO_TENANT);
  }

  /**
   * A cached reference answer, or the generation a fresh read will be kept under: the same cache a
   * gateway key's reads use, for the mapping's check against the books
   * (`orders/mapping-check.ts`).
   */
  referenceRead(ask: ReadAsk): Outcome<ReferenceRead> {
    return this.#parts.registration.get()
      ? ok(this.#parts.references.read(ask.key, ask.resource, ask.refresh, Date.now()))
      : fail("not-found", NO_TENANT);
  }

  /** Keeps a reference answer read under `generation`, unless its resource was written since. */
  async referenceKeep(ask: KeepAsk): Promise<Outcome<Kept | null>> {
    if (!this.#parts.registration.get()) return fail("not-found", NO_TENANT);
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

  /** Forgets the cached reads of `resource` (the operator wrote to it: a chart account created). */
  referenceForget(resource: string): Outcome<null> {
    if (!this.#parts.registration.get()) return fail("not-found", NO_TENANT);
    this.#parts.references.forget(resource);
    return ok(null);
  }

  /** The order mapping, defaults filled in. */
  orderMapping(): Outcome<OrderMapping> {
    return this.#parts.registration.get()
      ? ok(this.#parts.settings.mapping())
      : fail("not-found", NO_TENANT);
  }

  /** The tenant's runs, newest change first, optionally in one state. */
  orderRuns(state: RunState | null, limit: number): Outcome<OrderRunView[]> {
    return this.#parts.registration.get()
      ? ok(this.#parts.desk.list(state, limit))
      : fail("not-found", NO_TENANT);
  }

  /** One order's run. */
  orderRun(source: Source, orderId: string): Outcome<OrderRunView> {
    return this.#parts.registration.get()
      ? this.#parts.desk.view(source, orderId)
      : fail("not-found", NO_TENANT);
  }

  /** A new attempt for a failed order (or its failed refunds). */
  async retryOrder(source: Source, orderId: string): Promise<Outcome<OrderRunView>> {
    const r = this.#parts.registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const run = await this.#parts.desk.retry(ownerOf(r), source, orderId);
    await this.#parts.arm();
    return run;
  }

  /** The tenant's payouts, newest change first, optionally in one state. */
  payouts(state: PayoutState | null, limit: number): Outcome<PayoutView[]> {
    return this.#parts.registration.get()
      ? ok(this.#parts.payouts.list(state, limit))
      : fail("not-found", NO_TENANT);
  }

  /** One payout's reconciliation. */
  payout(source: Source, payoutId: string): Outcome<PayoutView> {
    return this.#parts.registration.get()
      ? this.#parts.payouts.view(source, payoutId)
      : fail("not-found", NO_TENANT);
  }

  /** A new attempt for an unmatched or failed payout. */
  async retryPayout(source: Source, payoutId: string): Promise<Outcome<PayoutView>> {
    const r = this.#parts.registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const retried = await this.#parts.payouts.retry(ownerOf(r), source, payoutId);
    await this.#parts.arm();
    return retried;
  }

  /**
   * Books a payout held because it pays out no order (`needs-orders`) on the operator's word: its
   * confirmation recorded, a new attempt started. The operator's alone: no other face has it.
   */
  async confirmPayout(source: Source, payoutId: string): Promise<Outcome<PayoutView>> {
    const r = this.#parts.registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const confirmed = await this.#parts.payouts.confirm(ownerOf(r), source, payoutId);
    await this.#parts.arm();
    return confirmed;
  }

  /** Orders settled to a clearing account and in no payout after the mapping's days. */
  unpaidOrders(limit: number): Outcome<{ afterDays: number; orders: UnpaidOrder[] }> {
    return this.#parts.registration.get()
      ? ok(this.#parts.payouts.unpaid(Date.now(), limit))
      : fail("not-found", NO_TENANT);
  }

  /**
   * The tenant's logged calls, newest first (`request-log.ts`; `before` is a row's `seq`), with the
   * client as the API names it for their support bundles (null: not read yet; `clientKeyId` then
   * goes back with the read to `keepApiClient`).
   */
  requests(status: StatusFilter, limit: number, before: number | null): Outcome<LoggedPage> {
    const r = this.#parts.registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    return ok({
      rows: this.#parts.log.list(status, limit, before, Date.now()),
      apiClient: r.apiClient,
      clientKeyId: r.clientKeyId,
      registrationId: r.registrationId,
    });
  }

  /** Keeps the client as the API named it, unless the client key changed since the read began. */
  keepApiClient(clientKeyId: string, client: ApiClient): Outcome<boolean> {
    if (!this.#parts.registration.get()) return fail("not-found", NO_TENANT);
    return ok(this.#parts.registration.keepApiClient(clientKeyId, client));
  }

  /** An assistant's tool calls, newest first (`tool-calls.ts`); `before` is a row's `seq`. */
  toolCalls(limit: number, before: number | null): Outcome<ToolCallRow[]> {
    if (!this.#parts.registration.get()) return fail("not-found", NO_TENANT);
    return ok(this.#parts.toolCalls.list(limit, before, Date.now()));
  }

  /** The tenant's live OAuth grants (assistants' connections), newest first. */
  assistantGrants(): Outcome<GrantView[]> {
    if (!this.#parts.registration.get()) return fail("not-found", NO_TENANT);
    return ok(this.#parts.grants.list(Date.now()).map(viewOf));
  }

  /** Records an OAuth grant the operator approved (the console's approval page). */
  async grantAssistant(ask: GrantAsk): Promise<Outcome<GrantView>> {
    const r = this.#parts.registration.get();
    return r ? addGrant(this.#parts, ownerOf(r), ask) : fail("not-found", NO_TENANT);
  }

  /**
   * Revokes a grant: the MCP door refuses its tokens from the next request on (the authorization
   * server's own records are revoked by the caller, `assistants/oauth/revoke.ts`).
   */
  revokeAssistantGrant(grantId: string): Outcome<null> {
    if (!this.#parts.registration.get()) return fail("not-found", NO_TENANT);
    return this.#parts.grants.revoke(grantId) ? ok(null) : fail("not-found", "No such grant.");
  }

  /** The counters kept with the tenant, which survive idling and restarts. */
  callCounters(): Outcome<CallCounters> {
    if (!this.#parts.registration.get()) return fail("not-found", NO_TENANT);
    return ok(this.#parts.log.counters());
  }

  /** Each source's webhook state: its secret (never the value), shop, last accepted and refused. */
  webhookStatus(): Outcome<WebhookStatus[]> {
    if (!this.#parts.registration.get()) return fail("not-found", NO_TENANT);
    return ok(webhookStatus(this.#parts.settings, this.#parts.pins));
  }
}

/** A page of the request log and what its support bundles name the client by. */
export interface LoggedPage {
  rows: LoggedRow[];
  apiClient: ApiClient | null;
  clientKeyId: string;
  /** For reading the client as the tenant, like offboarding (`request-log/api-client.ts`). */
  registrationId: string;
}

/** The stored counters as operators read them: `since` as an ISO time. */
function storedCounters(c: CallCounters) {
  return { ...c, since: new Date(c.since).toISOString() };
}
