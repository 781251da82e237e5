/**
 * @module
 * The declarations of the operator console (`/console/*`): server-rendered pages (`text/html`) and
 * the forms they post (`application/x-www-form-urlencoded`, each with the session's CSRF token).
 * Every route but the sign-in page needs the session cookie; `guard.tsx` enforces it, and the
 * declarations name it as the `operatorSession` scheme.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { MappingForm } from "./mapping-form";
import { Environment } from "../kernel/config";
import { Source } from "../orders/order";
import { ShopDomain } from "../orders/adapters/shopify";
import { RunState } from "../orders/runs";
import { formBody, htmlPage, redirect } from "../kernel/routes/contract-kit";
import { Target } from "../tenant/admin-contract";
import {
  capped,
  disabled,
  limited,
  noTenant,
  open,
  post,
  read,
  refused,
  signedOut,
} from "./contract-kit";

/** The shell's forms say where the CSRF token comes from, and what its refusal says. */
const Csrf = z
  .string()
  .openapi({ description: "The session's CSRF token, from the page's hidden field." });
const csrfRefused = {
  ...refused,
  403: htmlPage(
    'The form\'s CSRF token is missing or wrong ("The form expired"), or it came from another site.',
  ),
};
const WebhookTarget = Target.extend({ source: Source });
const OrderTarget = Target.extend({ source: Source, orderId: z.string().min(1).max(100) });

export const signInPage = createRoute({
  ...open.get,
  path: "/sign-in",
  operationId: "consoleSignInPage",
  summary: "The console's sign-in form",
  responses: { 200: htmlPage("The form."), ...disabled, ...limited },
});

export const signIn = createRoute({
  ...open.post,
  path: "/sign-in",
  operationId: "consoleSignIn",
  summary: "Sign in with the operator token",
  request: {
    body: formBody(
      z
        .object({ token: z.string().max(500).openapi({ description: "ADMIN_TOKEN." }) })
        .openapi("ConsoleSignIn"),
    ),
  },
  responses: {
    303: redirect("Signed in: the session cookie is set, to /console."),
    400: htmlPage("No token in the form."),
    401: htmlPage('"That token is not valid."'),
    403: csrfRefused[403],
    ...disabled,
    ...capped,
  },
});

export const signOut = createRoute({
  ...post,
  path: "/sign-out",
  operationId: "consoleSignOut",
  summary: "End the session",
  request: { body: formBody(z.object({ csrf: Csrf }).openapi("ConsoleForm")) },
  responses: {
    303: redirect(
      "Signed out: the cookie is cleared and the session refused from now on; to /console/sign-in.",
    ),
    ...csrfRefused,
  },
});

export const tenantsPage = createRoute({
  ...read,
  path: "/",
  operationId: "consoleTenants",
  summary: "Tenants, and connecting a client",
  request: {
    query: z.object({
      removed: z
        .string()
        .regex(/^(demo|production):[a-z0-9][a-z0-9-]{0,62}$/)
        .optional(),
    }),
  },
  responses: { 200: htmlPage("The tenants."), ...signedOut },
});

export const startOnboarding = createRoute({
  ...post,
  path: "/onboarding",
  operationId: "consoleStartOnboarding",
  summary: "Start onboarding a client: the approval page's link",
  request: {
    body: formBody(
      z
        .object({
          csrf: Csrf,
          environment: Environment,
          organizationNumber: z
            .string()
            .regex(/^\s*(\d{9})?\s*$/, "must be 9 digits")
            .optional(),
        })
        .openapi("ConsoleOnboarding"),
    ),
  },
  responses: {
    303: redirect(
      "Started: to the tenants' Connect form, the link to hand over in a one-time flash.",
    ),
    400: htmlPage("The form is not valid."),
    502: htmlPage("The API refused Initiate."),
    ...csrfRefused,
  },
});

export const budgetPage = createRoute({
  ...read,
  path: "/budget",
  operationId: "consoleBudget",
  summary: "The shared rate budget per environment",
  responses: {
    200: htmlPage("Permits per second over the last minute, queues and 429s; reloads every 5 s."),
    ...signedOut,
  },
});

export const tenantPage = createRoute({
  ...read,
  path: "/tenants/{environment}/{client}",
  operationId: "consoleTenant",
  summary: "A tenant: token, gateway keys, webhooks, order mapping",
  request: {
    params: Target,
  },
  responses: { 200: htmlPage("The tenant."), ...noTenant, ...signedOut },
});

export const rotateKey = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/gateway-keys",
  operationId: "consoleRotateGatewayKey",
  summary: "Issue a new gateway key (shown once, on the page the answer redirects to)",
  request: {
    params: Target,
    body: formBody(
      z
        .object({
          csrf: Csrf,
          graceSeconds: z.enum(["0", "3600", "86400", "604800"]).default("86400"),
        })
        .openapi("ConsoleRotation"),
    ),
  },
  responses: {
    303: redirect("Rotated: to the tenant's keys, the new key in a one-time sealed flash cookie."),
    ...noTenant,
    ...csrfRefused,
  },
});

export const saveSecret = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/webhooks/{source}",
  operationId: "consoleSetWebhookSecret",
  summary: "Set a shop's webhook secret",
  request: {
    params: WebhookTarget,
    body: formBody(
      z
        .object({
          csrf: Csrf,
          // Checked by the handler, not here: a refusal goes back to the form with the other
          // fields kept (post-redirect-get), not to a page of its own.
          secret: z.string().max(500),
          shopDomain: z.string().max(300).optional(),
        })
        .openapi("ConsoleWebhookSecret"),
    ),
  },
  responses: {
    303: redirect(
      "To the form on the tenant's page: saved, or why not (a short secret, a bad or missing shop domain, a shop another tenant has).",
    ),
    ...noTenant,
    ...csrfRefused,
  },
});

export const confirmShop = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/webhooks/{source}/confirm-shop",
  operationId: "consoleConfirmShop",
  summary: "Confirm the shop a first delivery pinned: it becomes the operator's binding",
  request: {
    params: WebhookTarget,
    body: formBody(
      z
        .object({ csrf: Csrf, shop: ShopDomain.meta({ description: "The shop the page showed." }) })
        .openapi("ConsoleShopConfirmation"),
    ),
  },
  responses: {
    303: redirect(
      "To the shop's form: confirmed, or why not (the shop changed, another tenant has it).",
    ),
    400: htmlPage("The form is not valid."),
    ...noTenant,
    ...csrfRefused,
  },
});

export const saveMapping = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/order-mapping",
  operationId: "consoleSetOrderMapping",
  summary: "Set the order mapping",
  // A clone: see `OrderMappingInput` in tenant/admin-contract.ts (zod 4 copies `.openapi` onto
  // schemas made after the extension only).
  request: { params: Target, body: formBody(MappingForm.clone().openapi("ConsoleOrderMapping")) },
  responses: {
    303: redirect(
      "To the form on the tenant's page: saved, or what to correct with the values typed.",
    ),
    ...noTenant,
    ...csrfRefused,
  },
});

export const removeTenant = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/remove",
  operationId: "consoleRemoveTenant",
  summary: "Remove a tenant (the form's box must be ticked)",
  request: {
    params: Target,
    body: formBody(
      z
        .object({
          csrf: Csrf,
          confirm: z.literal("yes").optional(),
          offboard: z.literal("yes").optional(),
        })
        .openapi("ConsoleRemoval"),
    ),
  },
  responses: {
    303: redirect("Removed: to the tenants; the box not ticked: back to the form, saying so."),
    ...noTenant,
    ...csrfRefused,
  },
});

export const ordersPage = createRoute({
  ...read,
  path: "/tenants/{environment}/{client}/orders",
  operationId: "consoleOrders",
  summary: "A tenant's order runs",
  request: { params: Target, query: z.object({ state: RunState.optional() }) },
  responses: { 200: htmlPage("The runs, newest change first."), ...noTenant, ...signedOut },
});

export const orderPage = createRoute({
  ...read,
  path: "/tenants/{environment}/{client}/orders/{source}/{orderId}",
  operationId: "consoleOrder",
  summary: "One order's run: steps, error, refunds",
  request: { params: OrderTarget },
  responses: { 200: htmlPage("The run."), 404: htmlPage("No such order."), ...signedOut },
});

export const retryOrder = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/orders/{source}/{orderId}/retry",
  operationId: "consoleRetryOrder",
  summary: "Run a failed order again",
  request: {
    params: OrderTarget,
    body: formBody(z.object({ csrf: Csrf }).openapi("ConsoleRetry")),
  },
  responses: {
    303: redirect("Started again: to the order's page."),
    404: htmlPage("No such order."),
    409: htmlPage("Nothing failed."),
    ...csrfRefused,
  },
});
