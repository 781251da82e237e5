/**
 * @module
 * The tenant object's modules as its faces reach them, each face a narrow `Pick` of them kept in
 * `#private` fields, out of RPC's reach (docs/design/faces.md).
 */
import type { AssistantGrants } from "../assistants/tenant/assistant-grants";
import type { CodeIds } from "../v2/tenant/code-ids";
import type { GatewayKeys } from "./gateway-keys";
import type { IdempotencyKeys } from "../v2/tenant/idempotency-keys";
import type { KnownIds } from "../orders/tenant/known-ids";
import type { OrderDesk, RunOwner } from "../orders/tenant/order-desk";
import type { OrderSettings } from "../orders/tenant/order-settings";
import type { PaymentRefs } from "../ledger/payment-refs";
import type { PayoutDesk } from "../payouts/tenant/payout-desk";
import type { ReferenceCache } from "../v2/tenant/reference-cache";
import type { RequestLog } from "../request-log/tenant-rows";
import type { ShopPins } from "../orders/tenant/shop-pins";
import type { SharedCalls } from "../orders/tenant/shared-calls";
import type { Pulses } from "../kernel/stored-rows";
import type { StripeKeys } from "../payouts/tenant/stripe-key";
import type { VippsDesk } from "../payouts/tenant/vipps-desk";
import type { VippsKeyStore } from "../payouts/tenant/vipps-keys";
import { nameOf, type Registration, type TenantRecord } from "./registration";
import type { TokenKeeper } from "../upstream/tenant/token-keeper";
import type { Connection } from "../upstream/tenant/connection";
import type { WebhookSetup } from "../orders/tenant/webhook-setup";
import type { ToolCalls } from "../assistants/tenant/tool-calls";
import type { WriteConfirmations } from "../assistants/tenant/write-confirmations";

export interface TenantParts {
  readonly storage: DurableObjectStorage;
  readonly registration: Registration;
  readonly keys: GatewayKeys;
  readonly tokens: TokenKeeper;
  readonly connection: Connection;
  readonly settings: OrderSettings;
  readonly pins: ShopPins;
  readonly webhooks: WebhookSetup;
  readonly desk: OrderDesk;
  readonly payouts: PayoutDesk;
  readonly stripeKeys: StripeKeys;
  readonly vippsKeys: VippsKeyStore;
  readonly vipps: VippsDesk;
  readonly paymentRefs: PaymentRefs;
  readonly known: KnownIds;
  readonly codeIds: CodeIds;
  readonly idempotency: IdempotencyKeys;
  readonly references: ReferenceCache;
  readonly log: RequestLog;
  readonly confirmations: WriteConfirmations;
  readonly toolCalls: ToolCalls;
  readonly grants: AssistantGrants;
  readonly shared: SharedCalls;
  readonly pulses: Pulses;
  /** Empties every table of every module in one transaction (the tenant's removal). */
  wipe(): void;
  /** Sets the object's one alarm to the earliest due time of the modules' stored work. */
  arm(): Promise<void>;
}

/** Who a run belongs to: the tenant's name and the registration it is started under. */
export const ownerOf = (r: TenantRecord): RunOwner => ({
  tenant: nameOf(r),
  registration: r.registrationId,
});

/** The detail of an operator action on a tenant that is not registered. */
export const NO_TENANT = "No such tenant.";
