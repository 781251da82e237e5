/**
 * @module
 * One MCP request served (Streamable HTTP): the SDK's `createMcpHandler` over a server factory for
 * the request's principal. It serves both eras from the one factory: the stateless 2026-07-28
 * revision (`server/discover`, the per-request `_meta` envelope) and the 2025-era `initialize`
 * handshake, served statelessly (`legacy: "stateless"`: each request its own server, GET and DELETE
 * answered 405), which Claude, Cursor, VS Code and the Inspector speak today. Nothing is kept
 * between requests: the handler, its server and its tools are made for this request and dropped
 * with it (lib keeps no module state), so any isolate serves any request.
 *
 * One message per request: a JSON-RPC batch (an array) is refused before the SDK sees it, so one
 * HTTP request costs at most one tool call's share of the budget (MCP removed batching in its
 * 2025-06-18 revision; no client this gateway serves sends one).
 */
import { createMcpHandler } from "@modelcontextprotocol/server";
import { readCapped } from "../../../shared/bytes";
import type { Bindings } from "../../kernel/config";
import { log } from "../../kernel/log";
import { BUFFERED_BODY_BYTES } from "../../v2/passthrough";
import { toCallLog } from "../../kernel/stubs";
import type { ToolCall } from "../tenant/tool-calls";
import type { ToolContext } from "./audit";
import type { AssistantPort } from "./port";
import type { Principal } from "./principal";
import { mcpServer } from "./server";

/**
 * The largest MCP request body, bytes: a write's JSON body may be as large as a checked `/v2`
 * body (`BUFFERED_BODY_BYTES`), and JSON-RPC wraps it in a string, escaping may double it. Larger
 * is a 413 before anything is parsed.
 */
export const MAX_MCP_BODY_BYTES = 2 * BUFFERED_BODY_BYTES + 64 * 1024;

/** What one MCP request is served with. */
export interface McpSession {
  env: Bindings;
  ctx: Pick<ExecutionContext, "waitUntil">;
  principal: Principal;
  port: AssistantPort;
  requestId: string;
  /** The gateway's version, for the server's `serverInfo`. */
  version: string;
  /**
   * For an OAuth session: the endpoint's protected-resource document, which a `403
   * insufficient_scope` names so the client can step up (`tools/prepare-tool.ts`); null for a key.
   */
  resourceMetadataUrl: string | null;
}

/**
 * Serves `req` for `s`'s principal: the SDK answers the protocol (its errors as JSON-RPC errors),
 * the tools answer the calls.
 *
 * @example return serveMcp(c.req.raw, { env, ctx, principal, port, requestId, version })
 */
export async function serveMcp(req: Request, s: McpSession): Promise<Response> {
  const read = await oneMessage(req);
  if (read instanceof Response) return read;
  const audit = (call: ToolCall) =>
    s.ctx.waitUntil(
      toCallLog(s.env, s.principal.tenant, (f) => f.tool(call)).catch((e: unknown) =>
        log.warn("tool-call-log-failed", {
          requestId: call.requestId,
          error: e instanceof Error ? e.name : "unknown",
        }),
      ),
    );
  const tc: ToolContext = {
    principal: s.principal,
    port: s.port,
    requestId: s.requestId,
    audit,
  };
  const handler = createMcpHandler(() => mcpServer(tc, s.version), {
    legacy: "stateless",
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
    // Reporting only: a malformed request is answered by the SDK whatever this does. Its name
    // only: a message may quote the request's arguments.
    onerror: (e) => log.info("mcp-request-refused", { requestId: s.requestId, error: e.name }),
  });
  // The SDK builds the 403 of a scope challenge from this; the token itself stays out of it (the
  // tool layer never holds a credential), so `token` is empty.
  const authInfo =
    s.resourceMetadataUrl === null
      ? undefined
      : {
          token: "",
          clientId: s.principal.id,
          scopes: [s.principal.scope],
          resourceMetadataUrl: s.resourceMetadataUrl,
        };
  return handler.fetch(read, authInfo && { authInfo });
}

/** A JSON-RPC error answer with no id, shaped as the SDK shapes its own. */
const rpcRefusal = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });

/** JSON's insignificant white space: space, tab, line feed, carriage return. */
const WHITE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * `req` with its body read under the cap, or the refusal of a body over it (413) or of a batch
 * (400, -32600 Invalid Request). The body that passes replaces the stream, so the SDK reads exactly
 * the checked bytes.
 */
async function oneMessage(req: Request): Promise<Request | Response> {
  if (req.body === null) return req;
  const bytes = await readCapped(req.body, MAX_MCP_BODY_BYTES);
  if (bytes === null)
    return rpcRefusal(413, -32000, `The body is larger than ${MAX_MCP_BODY_BYTES} bytes.`);
  if (bytes.find((b) => !WHITE.has(b)) === 0x5b)
    return rpcRefusal(
      400,
      -32600,
      "JSON-RPC batches are not accepted: send one message per request (MCP 2025-06-18 and later).",
    );
  return new Request(req, { body: bytes });
}
