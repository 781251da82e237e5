/**
 * The MCP server as an assistant reaches it in the tests: the SDK's own `Client` over its Streamable
 * HTTP transport, whose fetch goes to the gateway Worker in the Workers runtime, the sandbox
 * attached behind it. Each request waits for the work the answer left behind (the request log's
 * rows, `ctx.waitUntil`), and every JSON answer is checked against `/openapi.json`.
 */
import { env } from "cloudflare:workers";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expectDeclared } from "./answers";
import { gw } from "./gateway";
import { logged } from "./request-log";

/** Which protocol era the client speaks: it negotiates (`auto`: the 2026-07-28 revision), or 2025. */
export type Era = "auto" | "legacy";

/** A connected client of `endpoint` with `key`, speaking `era`. */
export async function mcpClient(
  key: string,
  {
    endpoint = "/mcp",
    era = "auto",
    headers = {},
  }: { endpoint?: string; era?: Era; headers?: Record<string, string> } = {},
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`https://gateway.test${endpoint}`), {
    requestInit: { headers: { ...headers, authorization: `Bearer ${key}` } },
    fetch: async (url, init = {}) => {
      const u = new URL(url);
      const res = await logged(`${u.pathname}${u.search}`, init, env);
      await expectDeclared(init.method ?? "GET", u.href, res);
      return res;
    },
  });
  const client = new Client(
    { name: "ledgergate-test", version: "1.0.0" },
    { versionNegotiation: { mode: era } },
  );
  await client.connect(transport);
  return client;
}

/** A tool call's structured answer (throws when the call was an error). */
export async function structuredOf<T>(client: Client, name: string, args: object): Promise<T> {
  const r = await client.callTool({ name, arguments: args as Record<string, unknown> });
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as T;
}

/** A tool call's error text (throws when the call succeeded). */
export async function errorOf(client: Client, name: string, args: object): Promise<string> {
  const r = await client.callTool({ name, arguments: args as Record<string, unknown> });
  if (!r.isError) throw new Error(`${name} succeeded: ${JSON.stringify(r.structuredContent)}`);
  const [first] = r.content as { type: string; text?: string }[];
  return first?.text ?? "";
}

/**
 * A bare 2025-era `initialize` POST to `endpoint` with `authorization` (if any) and `headers`: what
 * an MCP client sends first, for the door's answers (401, 403, 429).
 */
export function initialize(
  endpoint: string,
  authorization: string | null,
  headers: Record<string, string> = {},
): Promise<Response> {
  return gw(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(authorization ? { authorization } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "ledgergate-test", version: "1.0.0" },
      },
    }),
  });
}

/**
 * One `tools/call` as a bare 2025-era POST (served statelessly: no handshake needed), and the
 * JSON-RPC message it was answered with (read from the SSE stream), or null for a refusal at the
 * door (its status tells). For suites that make hundreds of calls.
 */
export async function toolCall(
  endpoint: string,
  key: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ res: Response; text: string; message: ToolMessage | null }> {
  const res = await gw(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${key}`,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args },
    }),
  });
  // A clone: the caller may read the answer too.
  const text = await res.clone().text();
  const data = /^data: (.*)$/m.exec(text)?.[1];
  return { res, text, message: data ? (JSON.parse(data) as ToolMessage) : null };
}

/** A `tools/call` answer as JSON-RPC carries it. */
export interface ToolMessage {
  result?: { isError?: boolean; structuredContent?: unknown; content?: { text?: string }[] };
  error?: { code: number; message: string };
}
