/**
 * @module
 * The tenant object's face for writing its logs: the request log (`request-log.ts`) and, beside
 * it, the audit of an assistant's tool calls (`tool-calls.ts`). Append only. Its callers are the
 * gateway's own code after it has authenticated the call (the `/v2` route behind
 * `authenticatedKey`, the MCP server behind its own key check, and the order runs' client,
 * `lib/orders/run/api.ts`; later the console and the watcher).
 *
 * Why not the key holder's face: `withKey` checks the key again (a SHA-256 and a constant-time
 * compare in the object), for every call, only to write a row after the answer; the access cache
 * exists to spare warm calls exactly that. What an unchecked face allows: a holder of the
 * namespace binding (only the gateway's own code) can add rows; it cannot read any, and the logs'
 * bounds keep what it adds from growing the storage. Nothing else of the tenant is reachable here.
 */
import { RpcTarget } from "cloudflare:workers";
import type { LoggedCall, RequestLog } from "./request-log";
import type { ToolCall, ToolCalls } from "./tool-calls";

/** Appends calls to one tenant's request log, and tool calls to its audit. */
export class CallLogFace extends RpcTarget {
  readonly #log: RequestLog;
  readonly #tools: ToolCalls;
  readonly #arm: () => Promise<void>;

  constructor(log: RequestLog, tools: ToolCalls, arm: () => Promise<void>) {
    super();
    this.#log = log;
    this.#tools = tools;
    this.#arm = arm;
  }

  /** Writes `call` (parsed: a row over its caps is refused) and sets the alarm for its expiry. */
  async record(call: LoggedCall): Promise<void> {
    this.#log.record(call);
    await this.#arm();
  }

  /** Writes one tool call of an assistant (parsed likewise) and sets the alarm for its expiry. */
  async tool(call: ToolCall): Promise<void> {
    this.#tools.record(call);
    await this.#arm();
  }
}
