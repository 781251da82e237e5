/**
 * @module
 * The declarations of the console's payout pages (`/console/tenants/{environment}/{client}/
 * payouts…`): the list with the accounts the mapping posts to and the orders in no payout, one
 * payout, its retry and its confirmation when it pays out no order, creating a missing account,
 * and the tenant's Stripe key. Kept apart from `contract.ts` so the payouts are one unit, like the
 * request log's page.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { PayoutSource } from "./payout";
import { PayoutState } from "./records";
import { Target } from "../tenant/admin-contract";
import { formBody, htmlPage, redirect } from "../kernel/routes/contract-kit";
import { Csrf, noTenant, post, read, refused, signedOut } from "../console/contract-kit";

const PayoutTarget = Target.extend({ source: PayoutSource, payoutId: z.string().min(1).max(100) });

export const payoutsPage = createRoute({
  ...read,
  path: "/tenants/{environment}/{client}/payouts",
  operationId: "consolePayouts",
  summary: "A tenant's payouts, the accounts they post to, and the orders in no payout",
  request: { params: Target, query: z.object({ state: PayoutState.optional() }) },
  responses: {
    200: htmlPage(
      "The payouts, newest change first; the accounts, each present or with a Create button.",
    ),
    ...noTenant,
    502: htmlPage("The client's chart could not be read."),
    ...signedOut,
  },
});

export const payoutPage = createRoute({
  ...read,
  path: "/tenants/{environment}/{client}/payouts/{source}/{payoutId}",
  operationId: "consolePayout",
  summary: "One payout: its lines by kind, what keeps it from matching, its voucher, its steps",
  request: { params: PayoutTarget },
  responses: { 200: htmlPage("The payout."), 404: htmlPage("No such payout."), ...signedOut },
});

export const retryPayout = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/payouts/{source}/{payoutId}/retry",
  operationId: "consoleRetryPayout",
  summary: "Reconcile an unmatched or failed payout again",
  request: {
    params: PayoutTarget,
    body: formBody(z.object({ csrf: Csrf }).openapi("ConsolePayoutRetry")),
  },
  responses: {
    303: redirect("Started again: to the payout's page."),
    404: htmlPage("No such payout."),
    409: htmlPage("Neither unmatched nor failed."),
    ...refused,
  },
});

export const confirmPayout = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/payouts/{source}/{payoutId}/confirm",
  operationId: "consoleConfirmPayout",
  summary: "Book a payout that pays out no order, on the operator's word",
  request: {
    params: PayoutTarget,
    body: formBody(z.object({ csrf: Csrf }).openapi("ConsolePayoutConfirmation")),
  },
  responses: {
    303: redirect("Confirmed and started again: to the payout's page."),
    404: htmlPage("No such payout."),
    409: htmlPage("Not held because it pays out no order (needs-orders)."),
    ...refused,
  },
});

export const createAccount = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/payouts/accounts",
  operationId: "consoleCreateAccount",
  summary: "Create an account the mapping posts to and the client's chart lacks",
  request: {
    params: Target,
    body: formBody(
      z
        .object({ csrf: Csrf, accountNo: z.string().regex(/^\d{4,8}$/) })
        .openapi("ConsoleAccountCreation"),
    ),
  },
  responses: {
    303: redirect("To the accounts on the payouts page: created, or why not."),
    400: htmlPage("The form is not valid."),
    ...noTenant,
    ...refused,
  },
});

export const setStripeKey = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/payouts/stripe-key",
  operationId: "consoleSetStripeKey",
  summary: "Set the tenant's Stripe key (never shown again)",
  request: {
    params: Target,
    body: formBody(z.object({ csrf: Csrf, key: z.string().max(300) }).openapi("ConsoleStripeKey")),
  },
  responses: {
    303: redirect("To the Stripe section of the payouts page: set, or why not."),
    ...noTenant,
    ...refused,
  },
});

export const removeStripeKey = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/payouts/stripe-key/remove",
  operationId: "consoleRemoveStripeKey",
  summary: "Forget the tenant's Stripe key",
  request: {
    params: Target,
    body: formBody(z.object({ csrf: Csrf }).openapi("ConsoleStripeKeyRemoval")),
  },
  responses: {
    303: redirect("To the Stripe section of the payouts page."),
    ...noTenant,
    ...refused,
  },
});

const VippsForm = z
  .object({
    csrf: Csrf,
    clientId: z.string().max(300),
    clientSecret: z.string().max(600),
    subscriptionKey: z.string().max(300),
    merchantSerialNumber: z.string().max(20),
    orderSource: z.string().max(20),
    referencePrefix: z.string().max(60).default(""),
    since: z.string().max(20).default(""),
  })
  .openapi("ConsoleVippsKeys");

export const setVippsKeys = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/payouts/vipps",
  operationId: "consoleSetVippsKeys",
  summary: "Set the tenant's Vipps MobilePay keys (never shown again)",
  request: { params: Target, body: formBody(VippsForm) },
  responses: {
    303: redirect("To the Vipps section of the payouts page: set, or why not."),
    ...noTenant,
    ...refused,
  },
});

const CsrfOnly = (name: string) => formBody(z.object({ csrf: Csrf }).openapi(name));

export const removeVippsKeys = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/payouts/vipps/remove",
  operationId: "consoleRemoveVippsKeys",
  summary: "Forget the tenant's Vipps keys (what was read and booked stays)",
  request: { params: Target, body: CsrfOnly("ConsoleVippsKeysRemoval") },
  responses: {
    303: redirect("To the Vipps section of the payouts page."),
    ...noTenant,
    ...refused,
  },
});

export const readVipps = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/payouts/vipps/read",
  operationId: "consoleReadVipps",
  summary: "Read every Vipps ledger date due now",
  request: { params: Target, body: CsrfOnly("ConsoleVippsRead") },
  responses: {
    303: redirect("To the Vipps section of the payouts page, with what the read found."),
    ...noTenant,
    ...refused,
  },
});
