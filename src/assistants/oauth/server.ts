/**
 * @module
 * ledgergate's OAuth 2.1 authorization server for its MCP endpoints: Cloudflare's
 * `workers-oauth-provider` in its authorization-server role (`OAuthAuthorizationServer`), mounted
 * as routes of the one Hono app (`assistants/oauth/protocol.ts`). The library owns the protocol:
 * RFC 8414 metadata, the token endpoint (codes, refresh with rotation, RFC 7009 revocation),
 * dynamic client registration (RFC 7591), client ID metadata documents, PKCE (S256 only; the
 * approval requires it of every client, confidential ones too, `assistants/oauth/approve.ts`),
 * redirect URIs (https or loopback only), resource indicators (RFC 8707) and RFC 9207's `iss`.
 * ledgergate owns the approval page (`assistants/oauth/`, `assistants/oauth/approve.ts`), the
 * grant's authority (the tenant's object) and the MCP door (`assistants/mcp-key.ts`), which
 * validates tokens with `validateToken` itself, because the same endpoints also take gateway keys.
 *
 * Built per request, from the request's origin: the issuer and the three resources are URLs of the
 * host the client reached (as the protected-resource documents already were), and lib keeps no
 * module state. Construction only checks options.
 *
 * Storage: the KV namespace `OAUTH_KV` (clients, grants, tokens and codes as hashes, props
 * encrypted, consent transactions; docs/storage.md). KV alone cannot refuse a revoked grant at once
 * (its deletes take up to a minute to reach other locations), so every token is also checked
 * against the tenant's object, here at the token endpoint and at the MCP door on every request.
 */
import {
  OAuthAuthorizationServer,
  OAuthError,
  type TokenExchangeCallbackOptions,
  type TokenExchangeCallbackResult,
} from "@cloudflare/workers-oauth-provider";
import type { Bindings } from "../../kernel/config";
import { log } from "../../kernel/log";
import { ENDPOINT_SCOPES, Scope, type McpEndpoint } from "../mcp/principal";
import { asGrantHolder } from "../../kernel/stubs";
import { GrantProps } from "./grants";

/** Where the authorization server's endpoints are, on the gateway's origin. */
export const OAUTH_PATHS = {
  metadata: "/.well-known/oauth-authorization-server",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
} as const;

/**
 * An access token's lifetime, s: 15 minutes. Short, so a token copied out of a client is worth
 * little; the MCP door checks the grant on every request anyway, so revocation does not wait for
 * it. (The library's minimum is 60 s, KV's shortest expiry.)
 */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/**
 * An approved dynamically registered client's lifetime, s: 30 days, renewed by the library while
 * the client keeps using its tokens (past half its life, its next token request renews it). One
 * nobody approved is deleted by the directory after hours
 * (`assistants/oauth/directory-registrations.ts`).
 */
export const CLIENT_REGISTRATION_TTL_SECONDS = 30 * 86_400;

/** The MCP endpoints, each a protected resource of its own (its tokens are for it alone). */
export const MCP_ENDPOINTS = Object.keys(ENDPOINT_SCOPES) as McpEndpoint[];

/** The canonical resource URL (RFC 8707) of an MCP endpoint on `origin`. */
export const mcpResource = (origin: string, endpoint: McpEndpoint) => `${origin}${endpoint}`;

/** The endpoint a resource URL names on `origin`, or null for one this server does not host. */
export function endpointOf(origin: string, resource: string | undefined): McpEndpoint | null {
  return MCP_ENDPOINTS.find((e) => mcpResource(origin, e) === resource) ?? null;
}

/** The refusal of a token request for a grant that is no longer live; the library revokes it too. */
const ended = () =>
  new OAuthError("invalid_grant", {
    description: "The grant was revoked or has ended: connect the assistant again.",
  });

/**
 * At every code exchange and refresh: the grant must still be live in its tenant's object (a
 * revoked grant gets no new token even while KV still holds it, and `invalid_grant` here makes the
 * library revoke its KV records too), and its tokens never outlive the lifetime the person picked.
 */
async function onTokenRequest(
  o: TokenExchangeCallbackOptions<Bindings>,
): Promise<TokenExchangeCallbackResult | undefined> {
  if (o.grantType !== "authorization_code" && o.grantType !== "refresh_token") return undefined;
  const props = GrantProps.safeParse(o.props);
  if (!props.success) throw ended();
  const { tenant, grant, expiresAt } = props.data;
  const live = await asGrantHolder(o.env, { tenant, grant }, (f) => f.use());
  const left = Math.floor((expiresAt - Date.now()) / 1000);
  // Under a minute left: no token (the library's shortest lifetime is a minute).
  if (!live.ok || left < 60) throw ended();
  const accessTokenTTL = Math.min(ACCESS_TOKEN_TTL_SECONDS, left);
  return o.grantType === "authorization_code"
    ? { accessTokenTTL, refreshTokenTTL: left }
    : { accessTokenTTL };
}

/**
 * The authorization server of the gateway at `origin` (https, or http on a loopback host for
 * `npm start`: the library refuses anything else).
 *
 * @example await authorizationServer(new URL(c.req.url).origin).fetch(c.req.raw, c.env,
 * c.executionCtx)
 */
export function authorizationServer(origin: string): OAuthAuthorizationServer<Bindings> {
  return new OAuthAuthorizationServer<Bindings>({
    issuer: origin,
    resources: MCP_ENDPOINTS.map((e) => mcpResource(origin, e)),
    authorizeEndpoint: OAUTH_PATHS.authorize,
    tokenEndpoint: OAUTH_PATHS.token,
    clientRegistrationEndpoint: OAUTH_PATHS.register,
    scopesSupported: [...Scope.options],
    clientIdMetadataDocumentEnabled: true,
    accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
    clientRegistrationTTL: CLIENT_REGISTRATION_TTL_SECONDS,
    tokenExchangeCallback: onTokenRequest,
    // The library's reason, never a token or a body (it puts none in `internal`), at info level:
    // refusals are the clients' business, not the operator's.
    onError: ({ code, status, internal }) => {
      log.info("oauth-refused", {
        code,
        status,
        category: internal.category,
        reason: internal.reason,
      });
    },
  });
}
