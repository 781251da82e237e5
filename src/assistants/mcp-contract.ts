/**
 * @module
 * The declarations of the MCP server (`assistants/mcp-routes.ts`): three endpoints, one per scope,
 * and each one's protected-resource document. The body is the SDK's to check (after the key), so
 * it is described here, not validated by the router.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { problems } from "../kernel/openapi/problems";
import { SECURITY } from "../kernel/openapi/security";
import { allows, ENDPOINT_SCOPES, Scope, type McpEndpoint } from "./mcp/principal";
import { mcpKey, mcpOrigin, resourceMetadataPath } from "./mcp-key";
import { jsonAnswer } from "../kernel/routes/contract-kit";
import { OAuthErrorBody } from "./oauth/contract";

const JsonRpcId = z.union([z.string(), z.int()]);

/** A JSON-RPC result: the MCP result object (tools, a tool's result, the server's description). */
const JsonRpcResult = z
  .strictObject({
    jsonrpc: z.literal("2.0"),
    id: JsonRpcId,
    result: z.record(z.string(), z.unknown()),
  })
  .openapi("JsonRpcResult");

/** A JSON-RPC error: a protocol error of MCP (an unknown tool, a malformed request, …). */
const JsonRpcError = z
  .strictObject({
    jsonrpc: z.literal("2.0"),
    id: JsonRpcId.nullable(),
    error: z.strictObject({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
  })
  .openapi("JsonRpcError");

const rpcError = (description: string) => jsonAnswer(description, JsonRpcError);

const SCOPE_WORDS: Record<McpEndpoint, string> = {
  "/mcp": "every tool; writes of every class, through prepare_write and confirm_write",
  "/mcp/draft":
    "every tool; writes of the draft class only (master data, sales orders, journal entry vouchers)",
  "/mcp/readonly": "the read tools only; write tools are not listed",
};

/** The declaration of one MCP endpoint. */
function endpoint(path: McpEndpoint, operationId: string) {
  return createRoute({
    tags: ["mcp"],
    security: [
      { [SECURITY.gatewayKey]: [] },
      { [SECURITY.oauthGrant]: [...Scope.options].filter((s) => allows(ENDPOINT_SCOPES[path], s)) },
    ],
    method: "post",
    path,
    operationId,
    middleware: [mcpOrigin(), mcpKey()] as const,
    summary: `The tenant's MCP server, scope ${ENDPOINT_SCOPES[path]}`,
    description: `Model Context Protocol over Streamable HTTP (docs/mcp.md), for the tenant of the gateway key or OAuth grant: ${SCOPE_WORDS[path]}. Serves the 2026-07-28 revision and the 2025-era initialize handshake, both statelessly. The body is one JSON-RPC message. A 401 carries WWW-Authenticate with resource_metadata (RFC 9728); an OAuth grant's scope is narrowed further by the endpoint's.`,
    responses: {
      200: {
        description:
          "A JSON-RPC response: a result, or an error (a tool's own failure is a result with isError). A 2025-era request is answered as text/event-stream: one `message` event holding the same JSON-RPC response.",
        content: {
          "application/json": { schema: z.union([JsonRpcResult, JsonRpcError]) },
          "text/event-stream": { schema: z.string() },
        },
      },
      202: { description: "A notification, accepted." },
      400: rpcError(
        "A malformed message, a header that contradicts it, or an unsupported version.",
      ),
      403: {
        description:
          "An Origin the gateway does not allow (a JSON-RPC error); or, under an OAuth grant, a call that needs more scope than the grant has and no more than the endpoint allows: insufficient_scope, with WWW-Authenticate naming the scope and the resource's document, for the client to step up.",
        content: { "application/json": { schema: z.union([JsonRpcError, OAuthErrorBody]) } },
      },
      404: rpcError("A method MCP does not have."),
      406: rpcError("An Accept header without application/json and text/event-stream."),
      413: rpcError("A body over 2 MiB."),
      415: rpcError("A body that is not application/json."),
      ...problems(401, 429, 503),
    },
  });
}

export const mcpWrite = endpoint("/mcp", "mcpWrite");
export const mcpDraft = endpoint("/mcp/draft", "mcpDraft");
export const mcpReadonly = endpoint("/mcp/readonly", "mcpReadonly");

/** RFC 9728 Protected Resource Metadata of an MCP endpoint. */
export const ProtectedResource = z
  .strictObject({
    resource: z.string().meta({ description: "The endpoint's URL: the audience of its tokens." }),
    resource_name: z.string(),
    bearer_methods_supported: z.array(z.literal("header")),
    scopes_supported: z
      .array(z.enum(["read", "draft", "write"]))
      .meta({ description: "The scopes a grant for this endpoint may have." }),
    authorization_servers: z
      .array(z.string())
      .meta({ description: "This gateway (its origin): where OAuth clients get a grant." }),
  })
  .openapi("ProtectedResource");

/** The declaration of one endpoint's protected-resource document. */
function metadata(path: McpEndpoint, operationId: string) {
  return createRoute({
    tags: ["mcp"],
    security: [],
    method: "get",
    path: resourceMetadataPath(path),
    operationId,
    summary: `Protected Resource Metadata (RFC 9728) of ${path}`,
    description:
      "No credential. Where an MCP client learns how to authenticate to the endpoint; the 401 of the endpoint points here.",
    responses: { 200: jsonAnswer("The document.", ProtectedResource) },
  });
}

export const mcpWriteMetadata = metadata("/mcp", "mcpWriteMetadata");
export const mcpDraftMetadata = metadata("/mcp/draft", "mcpDraftMetadata");
export const mcpReadonlyMetadata = metadata("/mcp/readonly", "mcpReadonlyMetadata");
