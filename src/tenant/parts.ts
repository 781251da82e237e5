/**
 * @module
 * The tenant object's modules as its faces (`key-face.ts`, `grant-face.ts`, `run-face.ts`,
 * `operator-face.ts` and the sections composed onto it) reach them. A face keeps them in `#private` fields, so nothing here is
 * reachable over RPC: only the faces' own methods are.
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
import type { StripeKeys } from "../payouts/tenant/stripe-key";
import { nameOf, type Registration, type TenantRecord } from "./registration";
import type { TokenKeeper } from "../upstream/tenant/token-keeper";
import type { WebhookSetup } from "../orders/tenant/webhook-setup";
import type { ToolCalls } from "../assistants/tenant/tool-calls";
import type { WriteConfirmations } from "../assistants/tenant/write-confirmations";

/** One tenant object's modules, shared by every face it hands out. */
export interface TenantParts {
  readonly storage: DurableObjectStorage;
  readonly registration: Registration;
  readonly keys: GatewayKeys;
  readonly tokens: TokenKeeper;
  readonly settings: OrderSettings;
  readonly pins: ShopPins;
  /** Webhook secrets and shop bindings, changed one at a time (`webhook-setup.ts`). */
  readonly webhooks: WebhookSetup;
  readonly desk: OrderDesk;
  /** The payouts: their own unit, with their own tables (`payout-desk.ts`). */
  readonly payouts: PayoutDesk;
  /** The tenant's Stripe key, sealed, for its payout runs only (`stripe-key.ts`). */
  readonly stripeKeys: StripeKeys;
  /** Which order a provider's payment paid (`payment-refs.ts`). */
  readonly paymentRefs: PaymentRefs;
  readonly known: KnownIds;
  readonly codeIds: CodeIds;
  readonly idempotency: IdempotencyKeys;
  readonly references: ReferenceCache;
  /** The calls made for the tenant and their counters (`request-log.ts`). */
  readonly log: RequestLog;
  /** An assistant's prepared writes (`write-confirmations.ts`). */
  readonly confirmations: WriteConfirmations;
  /** An assistant's tool calls (`tool-calls.ts`). */
  readonly toolCalls: ToolCalls;
  /** The OAuth grants approved for assistants (`assistant-grants.ts`). */
  readonly grants: AssistantGrants;
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
