/**
 * @module
 * The declarations of the console's side of OAuth (approval for a picked tenant, revocation). Every
 * route needs the session; the posts also its CSRF token.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { GrantId } from "../tenant/assistant-grants";
import { Scope } from "../mcp/principal";
import { Lifetime } from "../oauth/grants";
import { Target } from "../../tenant/admin-contract";
import { formBody, htmlPage, redirect } from "../../kernel/routes/contract-kit";
import { post, read, refused, signedOut } from "../../console/contract-kit";

export const operatorApprovalPage = createRoute({
  ...read,
  path: "/oauth/authorize",
  operationId: "consoleOAuthApprovalPage",
  summary: "The operator's approval page of an assistant's connection",
  description:
    "Linked from the key holder's approval page (`GET /oauth/authorize`): the same client's request, shown to the signed-in operator with a tenant to pick. A page: a visitor with no session is sent to sign in.",
  request: {
    query: z.object({
      request: z.string().max(8000).openapi({
        description: "The client's authorization request (the query of its `/oauth/authorize`).",
      }),
    }),
  },
  responses: {
    200: htmlPage("The page: the client's facts, a tenant, the scope and the lifetime."),
    302: redirect("A request the server refused, sent back to the client with error and iss."),
    400: htmlPage("A request that cannot be approved, and cannot safely be sent back."),
    ...signedOut,
  },
});

export const operatorApprove = createRoute({
  ...post,
  path: "/oauth/approve",
  operationId: "consoleOAuthApprove",
  summary: "Approve or deny an assistant's connection for a tenant, as the operator",
  request: {
    body: formBody(
      z
        .object({
          csrf: z.string(),
          consent: z.string().min(1).max(200),
          request: z.string().max(8000),
          decision: z.enum(["approve", "deny"]),
          tenant: z.string().max(100).optional(),
          scope: Scope.default("read"),
          lifetime: Lifetime.default("30d"),
        })
        .openapi("ConsoleOAuthApproval"),
    ),
  },
  responses: {
    200: htmlPage("The page again: the tenant picked is not registered."),
    302: redirect(
      "Back to the client: code (approved) or error=access_denied, with state and iss.",
    ),
    400: htmlPage("The page expired or was used, or asked for more than the endpoint allows."),
    ...refused,
  },
});

export const revokeGrant = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/grants/{grant}/revoke",
  operationId: "consoleRevokeGrant",
  summary: "Revoke an assistant's connection (its OAuth grant)",
  request: {
    params: Target.extend({ grant: GrantId }),
    body: formBody(z.object({ csrf: z.string() }).openapi("ConsoleGrantRevocation")),
  },
  responses: {
    303: redirect(
      "To the tenant's connections: revoked, its tokens refused from the next request on.",
    ),
    404: htmlPage("No such tenant or grant."),
    ...refused,
  },
});
