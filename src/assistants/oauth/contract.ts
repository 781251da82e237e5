/**
 * @module
 * The declarations of the OAuth authorization server (`assistants/oauth/`). The protocol endpoints
 * read their own bodies, so those are described here, not validated by the router; the approval
 * form is ledgergate's own and validated.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { problems } from "../../kernel/openapi/problems";
import { Scope } from "../mcp/principal";
import { Lifetime } from "./grants";
import { OAUTH_PATHS } from "./server";
import { formBody, htmlPage, jsonAnswer, redirect, tagged } from "../../kernel/routes/contract-kit";

/** The authorization server's routes: tagged `oauth`, no declared scheme (each checks its own). */
const oauth = tagged("oauth", null);

/** A string field the protocol lets a client or the server leave out. */
const OptionalString = z.string().optional();

/** An OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2). */
export const OAuthErrorBody = z
  .strictObject({ error: z.string(), error_description: OptionalString })
  .openapi("OAuthError");

/** RFC 8414 authorization server metadata, as the library builds it. */
const ServerMetadata = z
  .strictObject({
    issuer: z.string().meta({ description: "The gateway's origin." }),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    protected_resources: z
      .array(z.string())
      .optional()
      .meta({ description: "The MCP endpoints' resource URLs." }),
    registration_endpoint: z.string(),
    scopes_supported: z.array(Scope),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    token_endpoint_auth_signing_alg_values_supported: z.array(z.string()).optional(),
    revocation_endpoint: z.string(),
    code_challenge_methods_supported: z.array(z.literal("S256")),
    authorization_response_iss_parameter_supported: z.boolean(),
    client_id_metadata_document_supported: z.boolean(),
  })
  .openapi("AuthorizationServerMetadata");

/** A registered client (RFC 7591 §3.2.1). */
const RegisteredClient = z
  .strictObject({
    client_id: z.string(),
    client_secret: OptionalString,
    redirect_uris: z.array(z.string()),
    client_name: OptionalString,
    logo_uri: OptionalString,
    client_uri: OptionalString,
    policy_uri: OptionalString,
    tos_uri: OptionalString,
    jwks_uri: OptionalString,
    contacts: z.array(z.string()).optional(),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.string(),
    registration_client_uri: OptionalString,
    client_id_issued_at: z.int(),
    client_secret_issued_at: z.int().optional(),
    client_secret_expires_at: z.int().optional(),
  })
  .openapi("RegisteredClient");

/** A token answer (RFC 6749 §5.1, with the RFC 8707 resource). */
const Tokens = z
  .strictObject({
    access_token: z.string(),
    token_type: z.literal("bearer"),
    expires_in: z.int(),
    refresh_token: OptionalString,
    refresh_token_expires_in: z.int().optional(),
    scope: z.string(),
    resource: OptionalString,
  })
  .openapi("OAuthTokens");

export const oauthMetadata = createRoute({
  ...oauth.get,
  path: OAUTH_PATHS.metadata,
  operationId: "oauthServerMetadata",
  summary: "Authorization server metadata (RFC 8414)",
  description:
    "No credential. Where an MCP client that found this gateway in an endpoint's protected-resource document learns how to register, authorize and get tokens: PKCE S256 only, client ID metadata documents and dynamic registration, the scopes read, draft and write.",
  responses: { 200: jsonAnswer("The metadata.", ServerMetadata) },
});

export const oauthRegister = createRoute({
  ...oauth.post,
  path: OAUTH_PATHS.register,
  operationId: "oauthRegister",
  summary: "Register a client (RFC 7591)",
  description:
    "No credential. The body is the client's metadata (JSON): redirect_uris (https, or http on a loopback host), client_name, and the usual RFC 7591 fields. Paced per address (10 in any 10 minutes) and for the gateway (200); over either, 429 with Retry-After. A registration nobody approves lives 6 hours (at 1,000 waiting, the oldest is evicted); an approved one 30 days, renewed while it is used. A body over 16 KiB is 413. Prefer a client ID metadata document, which needs no registration.",
  responses: {
    201: jsonAnswer("The registered client.", RegisteredClient),
    400: jsonAnswer(
      "Metadata the server does not accept (invalid_client_metadata, invalid_redirect_uri).",
      OAuthErrorBody,
    ),
    ...problems(413, 429),
  },
});

export const oauthToken = createRoute({
  ...oauth.post,
  path: OAUTH_PATHS.token,
  operationId: "oauthToken",
  summary: "Tokens: a code or a refresh token exchanged, or a token revoked (RFC 7009)",
  description:
    "application/x-www-form-urlencoded. grant_type=authorization_code with code, code_verifier (PKCE S256), redirect_uri, client_id and resource; or grant_type=refresh_token with refresh_token (it rotates: the previous one works until the new one is first used). With token (and no grant_type), revokes that token: 200 with an empty body. An access token lives 15 minutes; a refresh token until the grant's end, the lifetime the person picked. A grant revoked in the console, or whose tenant was removed, gets invalid_grant.",
  responses: {
    200: jsonAnswer("New tokens (an empty body for a revocation).", Tokens),
    400: jsonAnswer("invalid_grant, invalid_request, invalid_target, …", OAuthErrorBody),
    401: jsonAnswer("invalid_client.", OAuthErrorBody),
    ...problems(413),
  },
});

export const oauthAuthorizePage = createRoute({
  ...oauth.get,
  path: OAUTH_PATHS.authorize,
  operationId: "oauthAuthorizePage",
  summary: "The approval page",
  description:
    "Where an assistant sends the person (response_type=code, client_id, redirect_uri, state, code_challenge with code_challenge_method=S256, resource: an MCP endpoint's URL, scope). The page shows the client's name (verified or not), where its tokens go, the endpoint, and asks for the tenant's gateway key (or the operator's console session), the scope and the lifetime. Sets a __Host- cookie binding the form to this browser.",
  responses: {
    200: htmlPage("The approval page."),
    302: redirect("A request the server refused, sent back to the client with error and iss."),
    400: htmlPage("A request that cannot be approved, and cannot safely be sent back."),
    ...problems(429),
  },
});

/** The approval form. The gateway key is typed by the person; it never appears in a URL. */
export const ApprovalForm = z
  .object({
    consent: z.string().min(1).max(200).openapi({ description: "The page's single-use handle." }),
    request: z.string().max(8000).openapi({
      description: "The client's authorization request (its query), to show the page again.",
    }),
    decision: z.enum(["approve", "deny"]),
    gatewayKey: z.string().max(200).optional(),
    scope: Scope.default("read"),
    lifetime: Lifetime.default("30d"),
  })
  .openapi("ApprovalForm");

export const oauthAuthorize = createRoute({
  ...oauth.post,
  path: OAUTH_PATHS.authorize,
  operationId: "oauthAuthorize",
  summary: "Approve or deny an assistant's connection",
  description:
    "The approval page's form, from the browser the page was opened in (its __Host- cookie must match the handle; a post from another site is refused). Approving with the tenant's gateway key makes a grant for that tenant alone, at the scope and for the lifetime picked, and sends the browser back to the client with a code; denying sends it back with access_denied.",
  request: { body: formBody(ApprovalForm) },
  responses: {
    302: redirect(
      "Back to the client: code (approved) or error=access_denied, with state and iss.",
    ),
    400: htmlPage("The page expired or was used, or asked for more than the endpoint allows."),
    401: htmlPage("The gateway key is not valid: the page again, with a new handle."),
    403: htmlPage("Posted from another site."),
    ...problems(413, 429),
  },
});
