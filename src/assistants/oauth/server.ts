/**
 * @module
 * The OAuth 2.1 authorization server of the MCP endpoints: Cloudflare's `workers-oauth-provider`,
 * which owns the protocol, built per request from the origin the client reached. Its records are in
 * `OAUTH_KV` (docs/storage.md), which cannot refuse a revoked grant at once, so every token is also
 * checked against the tenant's object, here and at the MCP door. See docs/design/faces.md.
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

/** An access token's lifetime, s: short, so a token copied out of a client is worth little. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/**
 * An approved registered client's lifetime, s, renewed while it uses its tokens; one nobody
 * approved goes sooner (`assistants/oauth/directory-registrations.ts`).
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

/** The refusal of a token request for a grant no longer live; the library revokes it too. */
const ended = () =>
  new OAuthError("invalid_grant", {
    description: "The grant was revoked or has ended: connect the assistant again.",
  });

/**
 * At every code exchange and refresh: the grant must still be live in its tenant's object, and its
 * tokens never outlive the lifetime the person picked.
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
 * The authorization server of the gateway at `origin` (https, or http on a loopback host).
 * @example await authorizationServer(origin).fetch(c.req.raw, c.env, c.executionCtx)
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
    // Never a token or a body (`internal` holds none); info: refusals are the clients' business.
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
