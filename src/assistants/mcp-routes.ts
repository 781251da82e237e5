/**
 * @module
 * The tenant's remote MCP server (docs/mcp.md): `/mcp`, `/mcp/draft`, `/mcp/readonly` and each
 * one's protected-resource document. Behind the door (`assistants/mcp-key.ts`), a principal and a
 * port are made and the SDK serves the request. Declarations: `assistants/mcp-contract.ts`.
 */
import type { Context } from "hono";
import { cors } from "hono/cors";
import type { GatewayApp } from "../kernel/app";
import { holderPort } from "./mcp/holder-port";
import {
  allows,
  ENDPOINT_SCOPES,
  narrower,
  Scope,
  type McpEndpoint,
  type Principal,
} from "./mcp/principal";
import { serveMcp } from "./mcp/serve";
import { Problem } from "../kernel/problem";
import { allowedOrigins, resourceMetadataPath } from "./mcp-key";
import { gatewayRouter } from "../kernel/routes/contract-kit";
import {
  mcpDraft,
  mcpDraftMetadata,
  mcpReadonly,
  mcpReadonlyMetadata,
  mcpWrite,
  mcpWriteMetadata,
} from "./mcp-contract";

const ENDPOINTS = Object.keys(ENDPOINT_SCOPES) as McpEndpoint[];

/**
 * Serves one MCP request at `endpoint`: a key's scope is the endpoint's; a grant's is the person's
 * pick narrowed by the endpoint, which it may step up to (`Principal.ceiling`).
 */
async function serve(c: Context<GatewayApp>, endpoint: McpEndpoint): Promise<Response> {
  const auth = c.var.mcpAuth;
  const origin = new URL(c.req.url).origin;
  const principal: Principal = {
    tenant: auth.holder.tenant,
    environment: auth.holder.environment,
    scope: narrower(ENDPOINT_SCOPES[endpoint], auth.granted ?? "write"),
    id: auth.principalId,
    ceiling: ENDPOINT_SCOPES[endpoint],
  };
  const port = holderPort({
    env: c.env,
    ctx: c.executionCtx,
    caller: auth.holder,
    accessCache: c.var.accessCache,
    origin,
    principalId: principal.id,
  });
  c.set("logFields", { mcp: endpoint, scope: principal.scope });
  return serveMcp(c.req.raw, {
    env: c.env,
    ctx: c.executionCtx,
    principal,
    port,
    requestId: c.get("requestId"),
    version: c.var.config.version,
    // Where a 403 insufficient_scope sends an OAuth client to step up (RFC 9728).
    resourceMetadataUrl:
      auth.granted === null ? null : `${origin}${resourceMetadataPath(endpoint)}`,
  });
}

/** An endpoint's protected-resource document (RFC 9728). */
function resourceMetadata(c: Context<GatewayApp>, endpoint: McpEndpoint) {
  const origin = new URL(c.req.url).origin;
  return c.json(
    {
      resource: `${origin}${endpoint}`,
      resource_name: `ledgergate: one tenant's books, scope ${ENDPOINT_SCOPES[endpoint]}`,
      authorization_servers: [origin],
      bearer_methods_supported: ["header" as const],
      scopes_supported: Scope.options.filter((s) => allows(ENDPOINT_SCOPES[endpoint], s)),
    },
    200,
    { "cache-control": "public, max-age=3600" },
  );
}

function hostnameOf(origin: string): string | null {
  try {
    return new URL(origin).hostname;
  } catch {
    return null;
  }
}

/** CORS for browser-based clients (the Inspector): the origins `mcpOrigin` lets through. */
const mcpCors = cors({
  origin: (origin, c: Context<GatewayApp>) =>
    allowedOrigins(c).includes(hostnameOf(origin) ?? "") ? origin : null,
  allowMethods: ["POST", "GET", "DELETE", "OPTIONS"],
  allowHeaders: [
    "authorization",
    "content-type",
    "accept",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "last-event-id",
  ],
  exposeHeaders: ["www-authenticate", "x-request-id", "mcp-session-id"],
});

const router = gatewayRouter();
// "/mcp/*" matches "/mcp" itself too.
router.use("/mcp/*", mcpCors);

export const mcpRoutes = router
  .openapi(mcpWrite, (c) => serve(c, "/mcp"))
  .openapi(mcpDraft, (c) => serve(c, "/mcp/draft"))
  .openapi(mcpReadonly, (c) => serve(c, "/mcp/readonly"))
  .openapi(mcpWriteMetadata, (c) => resourceMetadata(c, "/mcp"))
  .openapi(mcpDraftMetadata, (c) => resourceMetadata(c, "/mcp/draft"))
  .openapi(mcpReadonlyMetadata, (c) => resourceMetadata(c, "/mcp/readonly"));

// Any other method (the 2025-era session stream and its end): after the POST routes, a 405.
for (const endpoint of ENDPOINTS)
  router.all(endpoint, () => {
    throw new Problem(
      "method-not-allowed",
      "The MCP server is stateless: POST each JSON-RPC message; there is no stream to GET and no session to DELETE.",
      { headers: { allow: "POST" } },
    );
  });
