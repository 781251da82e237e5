/**
 * @module
 * The orders' part of the operator's face (`tenant/operator-sections.ts`): webhook secrets and
 * shops, the order mapping, and the runs. The face checks the registration before any method.
 */
import { failOn, ok, type Outcome } from "../../kernel/outcome";
import {
  clearingClash,
  resolveMapping,
  type MappingDefaults,
  type OrderMapping,
  type OrderMappingInput,
} from "../../ledger/mapping";
import { ownerOf, type TenantParts } from "../../tenant/parts";
import { nameOf, type TenantRecord } from "../../tenant/registration";
import type { Source } from "../order";
import type { OrderRunView } from "../run-view";
import type { RunState } from "../runs";
import type { SecretOptions, SecretSet } from "./order-settings";
import type { ShopBinding } from "./shop-pins";
import type { ShopView } from "./webhook-setup";
import { webhookStatus, type WebhookStatus } from "./webhook-status";

type OrdersHost = Pick<TenantParts, "desk" | "settings" | "pins" | "webhooks" | "arm">;

/** The operator's methods for the tenant's orders. */
export class OrdersSection {
  readonly #t: OrdersHost;

  constructor(t: OrdersHost) {
    this.#t = t;
  }

  /** Stores a source's webhook secret, and the shop it is bound to (`WebhookSetup.configure`). */
  setWebhookSecret(
    r: TenantRecord,
    source: Source,
    secret: string,
    opts: SecretOptions = {},
  ): Promise<Outcome<SecretSet>> {
    return this.#t.webhooks.configure(nameOf(r), source, secret, opts, Date.now());
  }

  /** Makes the shop a first delivery pinned, as the console showed it, the operator's binding. */
  confirmShop(r: TenantRecord, source: Source, shop: string): Promise<Outcome<ShopBinding>> {
    return this.#t.webhooks.confirmShop(nameOf(r), source, shop);
  }

  /** Each shop-naming source's bound shop (and by whom) and its last refused delivery. */
  shops(): Outcome<ShopView[]> {
    return ok(this.#t.webhooks.view());
  }

  /** Each source's webhook state: its secret (never the value), shop, last accepted and refused. */
  webhookStatus(): Outcome<WebhookStatus[]> {
    return ok(webhookStatus(this.#t.settings, this.#t.pins));
  }

  /** Stores the mapping unless its clearing accounts would mix providers' money (`clearingClash`). */
  setOrderMapping(_: TenantRecord, input: OrderMappingInput): Outcome<OrderMapping> {
    const { settings, desk } = this.#t;
    const clash = clearingClash(
      resolveMapping(input, settings.defaults()),
      desk.book.settledClearing(),
    );
    if (clash) return failOn(clash.path, "unprocessable", clash.message);
    return ok(settings.setMapping(input));
  }

  orderMapping(): Outcome<OrderMapping> {
    return ok(this.#t.settings.mapping());
  }

  /** What the tenant's mapping means where it says nothing (older tenants keep their booking). */
  mappingDefaults(): Outcome<MappingDefaults> {
    return ok(this.#t.settings.defaults());
  }

  /** The tenant's runs, newest change first, optionally in one state. */
  orderRuns(_: TenantRecord, state: RunState | null, limit: number): Outcome<OrderRunView[]> {
    return ok(this.#t.desk.list(state, limit));
  }

  orderRun(_: TenantRecord, source: Source, orderId: string): Outcome<OrderRunView> {
    return this.#t.desk.view(source, orderId);
  }

  /** A new attempt for a failed order (or its failed refunds). */
  async retryOrder(
    r: TenantRecord,
    source: Source,
    orderId: string,
  ): Promise<Outcome<OrderRunView>> {
    const run = await this.#t.desk.retry(ownerOf(r), source, orderId);
    await this.#t.arm();
    return run;
  }
}
