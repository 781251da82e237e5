/**
 * @module
 * The tenant's remote MCP server (docs/mcp.md): `/mcp` (scope `write`), `/mcp/draft` and
 * `/mcp/readonly`, for the gateway key's tenant, and each endpoint's protected-resource document.
 * The door (`middleware/mcp-key.ts`) checks Origin and the key; the handler turns the key into a
 * principal and a port (`lib/mcp/`), and the SDK serves the request. GET and DELETE (the 2025-era
 * session stream and its end) are answered 405: every request stands alone. Declarations:
 * `contract/mcp.ts`.
 */
import type { Context } from "hono";
import { cors } from "hono/cors";
import type { GatewayApp } from "../lib/app";
import { keyPort } from "../lib/mcp/key-port";
import { ENDPOINT_SCOPES, type McpEndpoint, type Principal } from "../lib/mcp/principal";
import { serveMcp } from "../lib/mcp/serve";
import { Problem } from "../lib/problem";
import { keyId } from "../lib/request-log/record";
import { allowedOrigins } from "../middleware/mcp-key";
import { gatewayRouter } from "./contract/kit";
import {
  mcpDraft,
  mcpDraftMetadata,
  mcpReadonly,
  mcpReadonlyMetadata,
  mcpWrite,
  mcpWriteMetadata,
} from "./contract/mcp";

const ENDPOINTS = Object.keys(ENDPOINT_SCOPES) as McpEndpoint[];

/** Serves one MCP request at `endpoint` for the authenticated key's tenant. */
async function serve(c: Context<GatewayApp>, endpoint: McpEndpoint): Promise<Response> {
  const caller = c.var.caller;
  const principal: Principal = {
    tenant: caller.tenant,
    environment: caller.environment,
    scope: ENDPOINT_SCOPES[endpoint],
    id: `key:${await keyId(caller.key)}`,
  };
  const port = keyPort({
    env: c.env,
    ctx: c.executionCtx,
    caller,
    accessCache: c.var.accessCache,
    origin: new URL(c.req.url).origin,
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
  });
}

/** An endpoint's protected-resource document (RFC 9728). */
function resourceMetadata(c: Context<GatewayApp>, endpoint: McpEndpoint) {
  return c.json(
    {
      resource: `${new URL(c.req.url).origin}${endpoint}`,
      resource_name: `ledgergate: one tenant's books, scope ${ENDPOINT_SCOPES[endpoint]}`,
      bearer_methods_supported: ["header" as const],
      scopes_supported: ["read" as const, "draft" as const, "write" as const],
    },
    200,
    { "cache-control": "public, max-age=3600" },
  );
}

/** `origin`'s hostname, or null for one that is not a URL (the opaque `null`). */
function hostnameOf(origin: string): string | null {
  try {
    return new URL(origin).hostname;
  } catch {
    return null;
  }
}

/**
 * CORS for browser-based clients (the Inspector's direct mode): allowed origins only (those
 * `mcpOrigin` lets through), with the headers MCP sends and reads.
 */
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

// Any other method (GET for the 2025-era session stream, DELETE for its end): registered after the
// POST routes, so it answers only what they do not. Not a route of its own in /openapi.json.
for (const endpoint of ENDPOINTS)
  router.all(endpoint, () => {
    throw new Problem(
      "method-not-allowed",
      "The MCP server is stateless: POST each JSON-RPC message; there is no stream to GET and no session to DELETE.",
      { headers: { allow: "POST" } },
    );
  });
