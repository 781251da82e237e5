/**
 * @module
 * The declarations of the operator API (`/admin/*`, `Authorization: Bearer <ADMIN_TOKEN>`): request
 * and answer schemas, problems, security. `tenant/admin-routes.ts` binds a handler to each.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { Environment } from "../kernel/config";
import { OrderMapping, OrderMappingInput } from "../ledger/mapping";
import { Source } from "../orders/order";
import { ShopDomain } from "../orders/adapters/shopify";
import { StripeKey, StripeMode } from "../payouts/stripe/key";
import { VippsKeysInput } from "../payouts/vipps/keys";
import { VippsKeysState, VippsView } from "../payouts/vipps/view";
import { SECURITY } from "../kernel/openapi/security";
import { ClientSlug } from "../kernel/stubs";
import { TenantView } from "./view";
import { jsonGate } from "../kernel/middleware/validate";
import { guarded, guardedJson, jsonAnswer, jsonBody, tagged } from "../kernel/routes/contract-kit";
import { Payout } from "../payouts/contract";

/** How long a rotated gateway key keeps working, s: a day, so callers can roll out the new one. */
export const DEFAULT_KEY_GRACE_SECONDS = 86_400;

const ClientKey = z.string().min(1).max(200);
const NewTenant = z
  .strictObject({
    client: ClientSlug,
    environment: Environment,
    clientKey: ClientKey,
    name: z.string().min(1).max(200).optional(),
  })
  .openapi("NewTenant");
/** A gateway key's rotation; the body is optional (`withDefaults` fills in the grace). */
export const Rotation = z
  .strictObject({
    graceSeconds: z
      .int()
      .min(0)
      .max(30 * 86_400)
      .default(DEFAULT_KEY_GRACE_SECONDS),
  })
  .openapi("KeyRotation");
const Replacement = z.strictObject({ clientKey: ClientKey }).openapi("ClientKeyReplacement");
const WebhookSecret = z
  .strictObject({
    secret: z.string().min(8).max(500),
    shopDomain: ShopDomain.optional().meta({
      description:
        "Required for `shopify` (422 without it): the one shop whose deliveries this tenant takes. Refused (409) when another tenant has this secret for the same shop. Not taken by other sources (400).",
    }),
  })
  .openapi("WebhookSecret");
const SecretRotation = WebhookSecret.extend({ graceSeconds: Rotation.shape.graceSeconds }).openapi(
  "WebhookSecretRotation",
);
export const Target = z.object({ environment: Environment, client: ClientSlug });
const WebhookTarget = Target.extend({ source: Source });

const Registered = z
  .strictObject({
    tenant: z.string(),
    gatewayKey: z.string().openapi({ description: "Shown once; stored only as a hash." }),
  })
  .openapi("RegisteredTenant");
const Rotated = z
  .strictObject({ gatewayKey: z.string(), previousKeysRetireAt: z.string() })
  .openapi("RotatedGatewayKey");
const Count = (description: string) => z.int().min(0).openapi({ description });
const ClientKeyReplaced = z
  .strictObject({
    cleared: z
      .strictObject({
        knownCustomers: Count("Buyers matched to customers of the old books."),
        knownProducts: Count("Product codes known with their sales account."),
        codeIds: Count("Codes and numbers resolved to ids (shaping)."),
        idempotencyRecords: Count(
          "Kept answers of Idempotency-Key writes: a retry of one of them is sent again.",
        ),
        referenceCache: Count("Cached reference lists (VAT codes, accounts, …)."),
        settlementIds: Count("Settlement accounts' ids (and the VatId of code 0)."),
        loggedCalls: Count(
          "Calls of the request log: failed calls' bodies and the API's errors are the old books' personal data.",
        ),
        toolCalls: Count("An assistant's tool calls (the MCP server's audit) on the old books."),
        writeConfirmations: Count(
          "Writes an assistant prepared and had not confirmed: a confirmation would now write to other books.",
        ),
        events: Count(
          "Events of the event log (the old books' changes, personal data); the webhook endpoints stay.",
        ),
      })
      .openapi({
        description:
          "Records of the old books dropped, by kind: the new key may open other books, where the same ids are other records or none.",
      }),
  })
  .openapi("ClientKeyReplaced");
const StripeKeyBody = z
  .strictObject({
    key: StripeKey.meta({
      description:
        "A restricted key (`rk_test_…` or `rk_live_…`) with Read on Payouts, Balance, Charges, Refunds and Disputes. A secret key (`sk_…`) is refused: reading is all ledgergate does with it.",
    }),
  })
  .openapi("StripeKeyInput");
const StripeKeyState = z
  .strictObject({
    set: z.boolean(),
    mode: StripeMode.nullable().meta({ description: "`test` or `live`, as the key says." }),
    setAt: z.string().nullable(),
  })
  .openapi("StripeKeyState", { description: "Whether a Stripe key is set: never the key." });
const StripeKeySet = z
  .strictObject({
    stripeKey: StripeKeyState,
    payoutsRestarted: Count("Payouts that waited for a key (`needs-key`), each started again."),
  })
  .openapi("StripeKeySet");
const SecretSet = z
  .strictObject({ previousSecretRetiresAt: z.string().nullable() })
  .openapi("WebhookSecretSet");
// Clones (see `setOrderMapping`): lib schemas, named here for the document.
const OrderMappingAnswer = OrderMapping.clone().openapi("OrderMapping", {
  description: "The tenant's order mapping with every default filled in.",
});
const Tenant = TenantView.clone().openapi("Tenant", {
  description: "A tenant as operators see it: never a secret.",
});

const admin = tagged("admin", SECURITY.operator);
const none = (description: string) => ({ description });

export const registerTenant = createRoute({
  ...admin.post,
  path: "/tenants",
  operationId: "registerTenant",
  summary: "Register a tenant with its client key",
  description:
    "Checks the client key with the token endpoint first; the answer shows the tenant's first gateway key, once.",
  middleware: [jsonGate()],
  request: { body: jsonBody(NewTenant) },
  responses: { 201: jsonAnswer("Registered.", Registered), ...guardedJson(409, 422, 502) },
});

export const listTenants = createRoute({
  ...admin.get,
  path: "/tenants",
  operationId: "listTenants",
  summary: "Every tenant with its token state and counters",
  responses: {
    200: jsonAnswer("The tenants.", z.strictObject({ tenants: z.array(Tenant) })),
    ...guarded(),
  },
});

export const rotateGatewayKey = createRoute({
  ...admin.post,
  path: "/tenants/{environment}/{client}/gateway-keys",
  operationId: "rotateGatewayKey",
  summary: "Issue a new gateway key; earlier ones retire after the grace period",
  middleware: [jsonGate({ optional: true })],
  request: { params: Target, body: jsonBody(Rotation, false) },
  responses: { 201: jsonAnswer("The new key, shown once.", Rotated), ...guardedJson(404) },
});

export const replaceClientKey = createRoute({
  ...admin.put,
  path: "/tenants/{environment}/{client}/client-key",
  operationId: "replaceClientKey",
  summary: "Replace the tenant's client key",
  description:
    "Checks the new key with the token endpoint first (nothing changes on refusal). The new key may open other books, so what the tenant remembered of the old ones is dropped; the answer counts it.",
  middleware: [jsonGate()],
  request: { params: Target, body: jsonBody(Replacement) },
  responses: {
    200: jsonAnswer("Replaced; what was dropped of the old books.", ClientKeyReplaced),
    ...guardedJson(404, 409, 422, 502),
  },
});

export const setWebhookSecret = createRoute({
  ...admin.put,
  path: "/tenants/{environment}/{client}/webhooks/{source}",
  operationId: "setWebhookSecret",
  summary: "Set a source's webhook secret outright (no earlier secret verifies any more)",
  middleware: [jsonGate()],
  request: { params: WebhookTarget, body: jsonBody(WebhookSecret) },
  responses: { 204: none("Set."), ...guardedJson(404, 409, 422) },
});

export const rotateWebhookSecret = createRoute({
  ...admin.post,
  path: "/tenants/{environment}/{client}/webhooks/{source}/secrets",
  operationId: "rotateWebhookSecret",
  summary: "Add a webhook secret; the previous one keeps verifying for the grace period",
  middleware: [jsonGate()],
  request: { params: WebhookTarget, body: jsonBody(SecretRotation) },
  responses: { 201: jsonAnswer("Added.", SecretSet), ...guardedJson(404, 409, 422) },
});

export const setOrderMapping = createRoute({
  ...admin.put,
  path: "/tenants/{environment}/{client}/order-mapping",
  operationId: "setOrderMapping",
  summary: "Set how shop orders become invoices",
  middleware: [jsonGate()],
  // A clone: a zod schema made before @hono/zod-openapi extended zod has no `.openapi`.
  request: {
    params: Target,
    body: jsonBody(OrderMappingInput.clone().openapi("OrderMappingInput")),
  },
  responses: {
    200: jsonAnswer("The mapping in force.", OrderMappingAnswer),
    // 422: an account the client's books lack (or of the wrong VAT rate), each field listed;
    // 502/503/504: the books could not be read. Nothing is stored on either.
    ...guardedJson(404, 422, 502, 504),
  },
});

export const getOrderMapping = createRoute({
  ...admin.get,
  path: "/tenants/{environment}/{client}/order-mapping",
  operationId: "getOrderMapping",
  summary: "The order mapping in force",
  request: { params: Target },
  responses: { 200: jsonAnswer("The mapping in force.", OrderMappingAnswer), ...guarded(404) },
});

export const setStripeKey = createRoute({
  ...admin.put,
  path: "/tenants/{environment}/{client}/stripe-key",
  operationId: "setStripeKey",
  summary: "Set the tenant's Stripe key, for reading its Stripe payouts",
  description:
    "Stored sealed, never shown again (docs/payouts.md, Stripe). Payouts that waited for a key start again; the answer counts them.",
  middleware: [jsonGate()],
  request: { params: Target, body: jsonBody(StripeKeyBody) },
  responses: {
    200: jsonAnswer("Set; whether a key is set now, and the payouts started again.", StripeKeySet),
    ...guardedJson(404),
  },
});

export const getStripeKey = createRoute({
  ...admin.get,
  path: "/tenants/{environment}/{client}/stripe-key",
  operationId: "getStripeKey",
  summary: "Whether the tenant has a Stripe key, its mode and when it was set (never the key)",
  request: { params: Target },
  responses: { 200: jsonAnswer("The key's state.", StripeKeyState), ...guarded(404) },
});

export const removeStripeKey = createRoute({
  ...admin.delete,
  path: "/tenants/{environment}/{client}/stripe-key",
  operationId: "removeStripeKey",
  summary: "Forget the tenant's Stripe key",
  request: { params: Target },
  responses: { 204: none("Forgotten (or none was set)."), ...guarded(404) },
});

// Clones (see `setOrderMapping`): the payouts' schemas, named here for the document.
const VippsKeysBody = VippsKeysInput.clone().openapi("VippsKeysInput");
const VippsKeysStatus = VippsKeysState.clone().openapi("VippsKeysState", {
  description: "Whether Vipps keys are set, with their settings: never the keys.",
});
const VippsStatus = VippsView.clone().openapi("VippsReading");

export const setVippsKeys = createRoute({
  ...admin.put,
  path: "/tenants/{environment}/{client}/vipps-keys",
  operationId: "setVippsKeys",
  summary: "Set the tenant's Vipps MobilePay keys, for reading its settlements",
  description:
    "A sales unit's own keys (docs/payouts.md, Vipps MobilePay), stored sealed and never shown again. The first read is ten minutes later, or at once with `POST …/vipps/read`.",
  middleware: [jsonGate()],
  request: { params: Target, body: jsonBody(VippsKeysBody) },
  responses: {
    200: jsonAnswer("Set.", z.strictObject({ vippsKeys: VippsKeysStatus }).openapi("VippsKeysSet")),
    ...guardedJson(404),
  },
});

export const getVippsKeys = createRoute({
  ...admin.get,
  path: "/tenants/{environment}/{client}/vipps-keys",
  operationId: "getVippsKeys",
  summary: "Whether the tenant has Vipps keys, with their settings (never the keys)",
  request: { params: Target },
  responses: { 200: jsonAnswer("The keys' state.", VippsKeysStatus), ...guarded(404) },
});

export const removeVippsKeys = createRoute({
  ...admin.delete,
  path: "/tenants/{environment}/{client}/vipps-keys",
  operationId: "removeVippsKeys",
  summary: "Forget the tenant's Vipps keys (what was read and booked stays)",
  request: { params: Target },
  responses: { 204: none("Forgotten (or none were set)."), ...guarded(404) },
});

export const getVipps = createRoute({
  ...admin.get,
  path: "/tenants/{environment}/{client}/vipps",
  operationId: "getVipps",
  summary: "The Vipps ledgers read, their dates and what is carried to the next payout",
  request: { params: Target },
  responses: { 200: jsonAnswer("What was read.", VippsStatus), ...guarded(404) },
});

export const readVipps = createRoute({
  ...admin.post,
  path: "/tenants/{environment}/{client}/vipps/read",
  operationId: "readVipps",
  summary: "Read every Vipps ledger date due now",
  description:
    "Reads each ledger's closed dates not read yet (at most 31 a ledger), hands each payout found to its reconciliation and answers what was read. A failure of Vipps is in `lastRead.error`. 409 without keys.",
  request: { params: Target },
  responses: { 200: jsonAnswer("What was read.", VippsStatus), ...guarded(404, 409) },
});

/** `?offboard=true`: also end the integration upstream first (off: removal need not disconnect). */
const Removal = z.object({
  offboard: z.enum(["true", "false"]).optional().openapi({
    description:
      "`true`: first call `DELETE /Offboarding/RemoveIntegration` as the tenant (its client key stops working); if that fails the tenant is kept. Default `false`.",
  }),
});

export const removeTenant = createRoute({
  ...admin.delete,
  path: "/tenants/{environment}/{client}",
  operationId: "removeTenant",
  summary: "Remove a tenant and everything stored for it",
  request: { params: Target, query: Removal },
  responses: { 204: none("Removed."), ...guarded(400, 404, 502, 504) },
});

export const confirmPayout = createRoute({
  ...admin.post,
  path: "/tenants/{environment}/{client}/payouts/{source}/{payoutId}/confirm",
  operationId: "confirmPayout",
  summary: "Book a payout that pays out no order, on the operator's word",
  description:
    "For a payout held `unmatched` because no line is a charge or refund (`needs-orders`): records that the operator accepted it (`confirmedBy`, `confirmedAt`) and starts a new attempt, which skips that one rule and checks everything else. Not on `/payouts`: a gateway key's holder could have sent the payout (docs/payouts.md).",
  request: { params: Target.extend({ source: Source, payoutId: z.string().min(1).max(100) }) },
  responses: {
    202: jsonAnswer("The payout, confirmed, its new attempt started.", Payout),
    // 404: no such tenant or payout; 409: not held for needs-orders.
    ...guarded(404, 409),
  },
});
