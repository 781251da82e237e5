/**
 * @module
 * One MCP request served (Streamable HTTP) by the SDK's `createMcpHandler`, statelessly in both
 * eras (the 2026-07-28 revision and the 2025-era handshake): nothing is kept between requests, so
 * any isolate serves any request. A JSON-RPC batch is refused first: one HTTP request costs at most
 * one tool call's share of the budget.
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

/** The largest MCP request body, bytes: a `/v2` body, doubled by escaping in a JSON string. */
export const MAX_MCP_BODY_BYTES = 2 * BUFFERED_BODY_BYTES + 64 * 1024;

export interface McpSession {
  env: Bindings;
  ctx: Pick<ExecutionContext, "waitUntil">;
  principal: Principal;
  port: AssistantPort;
  requestId: string;
  version: string;
  /** An OAuth session's protected-resource document, for a step-up's 403; null for a key. */
  resourceMetadataUrl: string | null;
}

/**
 * Serves `req` for `s`'s principal: the SDK answers the protocol, the tools the calls.
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
    // Reporting only, and its name only: a message may quote the request's arguments.
    onerror: (e) => log.info("mcp-request-refused", { requestId: s.requestId, error: e.name }),
  });
  // For the SDK's scope challenge; `token` stays empty: the tool layer holds no credential.
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

const rpcRefusal = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });

/** JSON's insignificant white space: space, tab, line feed, carriage return. */
const WHITE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** `req` with its body read under the cap (the SDK reads exactly these bytes), or a refusal. */
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
