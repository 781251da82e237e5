/**
 * @module
 * What the MCP tools may do with their tenant: the narrow interface between the tool layer and the
 * gateway. Built at the door (`holder-port.ts`), it keeps the credential to itself.
 */
import type { OrderRunView } from "../../orders/run-view";
import type { RunState } from "../../orders/runs";
import type { Source } from "../../orders/order";
import type { StashAsk, Taken } from "../tenant/write-confirmations";

export interface ApiCall {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Below the v2 root, starting with `/`; checked as a `/v2` path is. */
  path: string;
  search: string;
  json: string | null;
  /** Its media type: JSON, a JSON Patch, or a merge patch (`writeMediaType`). */
  mediaType?: string;
  /** For a confirmed write: the idempotency key its `/v2` pipeline answers it once by. */
  idempotencyKey?: string;
}

/** What one tool call spent, for its audit row: filled in by the port as calls go out. */
export interface ToolRun {
  /** The MCP request's id; each API call of the tool is logged as `<id>.<n>`. */
  requestId: string;
  calls: number;
  /** Upstream attempts of those calls (a cached or replayed answer makes none). */
  upstreamCalls: number;
}

/** The tenant as the MCP tools reach it. Every method throws the gateway's `Problem` on refusal. */
export interface AssistantPort {
  /** Checks `call` as `/v2` would before sending it (path, catalog, body); sends nothing. */
  check(call: ApiCall): Promise<void>;
  /** Sends `call` through the one `/v2` pipeline (`v2/call.ts`), in the assistant's lane. */
  send(call: ApiCall, run: ToolRun): Promise<Response>;
  /** Keeps a checked write under a confirmation handle's hash (`write-confirmations.ts`). */
  stash(ask: StashAsk): Promise<{ expiresAt: number }>;
  take(handleHash: string, principal: string): Promise<Taken>;
  /** One order's run (the gateway's own record: no API call). */
  orderRun(source: Source, orderId: string): Promise<OrderRunView>;
  orderRuns(state: RunState | null, limit: number): Promise<OrderRunView[]>;
}

/**
 * The media type of a write's JSON body: a PATCH's array is a JSON Patch, its object a merge patch.
 * @example writeMediaType("PATCH", { Name: "Fjord AS" }) // "application/merge-patch+json"
 */
export function writeMediaType(method: string, body: unknown): string {
  if (method !== "PATCH") return "application/json";
  return Array.isArray(body) ? "application/json-patch+json" : "application/merge-patch+json";
}
