/**
 * @module The gateway's credentials as OpenAPI security schemes. OpenAPI has no word for "an HMAC
 * of the body", so each webhook signature is an `apiKey` in its header, described in words.
 */
import { SESSION_COOKIE } from "../../console/cookie";

export const SECURITY = {
  operator: "operatorToken",
  gatewayKey: "gatewayKey",
  shopify: "shopifyHmac",
  woocommerce: "wooCommerceHmac",
  stripe: "stripeSignature",
  standard: "standardWebhooks",
  operatorSession: "operatorSession",
  oauthGrant: "oauthGrant",
} as const;

/** Every scheme by name: the `components.securitySchemes` of both documents. */
export const SECURITY_SCHEMES = {
  [SECURITY.operator]: {
    type: "http",
    scheme: "bearer",
    description: "The operator's token: `Authorization: Bearer <ADMIN_TOKEN>`.",
  },
  [SECURITY.gatewayKey]: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "lg_{environment}_{client}_{secret}",
    description:
      "A gateway key (`Authorization: Bearer <gateway key>`), bound to one tenant; the operator gets it when registering the tenant or rotating its keys.",
  },
  [SECURITY.shopify]: {
    type: "apiKey",
    in: "header",
    name: "X-Shopify-Hmac-Sha256",
    description:
      "Shopify: base64 HMAC-SHA256 of the raw body with the tenant's Shopify webhook secret (also accepted as `Shopify-Hmac-Sha256`); `X-Shopify-Shop-Domain` must match the configured shop domain when one is set.",
  },
  [SECURITY.woocommerce]: {
    type: "apiKey",
    in: "header",
    name: "X-WC-Webhook-Signature",
    description:
      "WooCommerce: base64 HMAC-SHA256 of the raw body with the webhook's secret. The unsigned activation ping is answered without processing.",
  },
  [SECURITY.stripe]: {
    type: "apiKey",
    in: "header",
    name: "Stripe-Signature",
    description:
      'Stripe: `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` with the endpoint\'s signing secret (any one `v1` may match); a `t` more than 300 s from now is refused.',
  },
  [SECURITY.standard]: {
    type: "apiKey",
    in: "header",
    name: "webhook-signature",
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` with the `whsec_` secret; `webhook-id` and `webhook-timestamp` are required too; a timestamp more than 300 s from now is refused.',
  },
  [SECURITY.oauthGrant]: {
    type: "oauth2",
    description:
      "An OAuth 2.1 access token of a grant a person approved for one tenant and one scope (docs/mcp.md, connecting claude.ai and ChatGPT): PKCE S256, dynamic registration or a client ID metadata document; the MCP endpoints' protected-resource documents name the authorization server.",
    flows: {
      authorizationCode: {
        authorizationUrl: "/oauth/authorize",
        tokenUrl: "/oauth/token",
        refreshUrl: "/oauth/token",
        scopes: {
          read: "Read the tenant's books.",
          draft:
            "Also prepare and confirm drafts: master data, sales orders, journal entry vouchers.",
          write: "Also every other write: invoicing and sending, posting, deleting.",
        },
      },
    },
  },
  [SECURITY.operatorSession]: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description:
      "The console's session cookie, set by `POST /console/sign-in` with the operator token (HttpOnly, SameSite=Strict, Path=/console). Form posts also carry the session's CSRF token in the field `csrf`.",
  },
} as const;
