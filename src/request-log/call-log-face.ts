/**
 * @module
 * The tenant object's face for writing its logs: the request log (`request-log.ts`: a row, or only
 * the counters' share of one) and, beside it, the audit of an assistant's tool calls
 * (`tool-calls.ts`). Append only. Its callers are the gateway's own code after it has
 * authenticated the call (the `/v2` route behind `authenticatedKey`, the MCP server behind its own
 * key check, the order runs' client, `ledger/run-api.ts`, and the operator's calls behind the
 * admin token or the console's session, `request-log/upstream.ts`; later the watcher).
 *
 * Why not the key holder's face: `forKey` checks the key again (a SHA-256 and a constant-time
 * compare in the object), for every call, only to write a row after the answer; the access cache
 * exists to spare warm calls exactly that. What an unchecked face allows: a holder of the
 * namespace binding (only the gateway's own code) can add rows; it cannot read any, and the logs'
 * bounds keep what it adds from growing the storage. Nothing else of the tenant is reachable here.
 */
import { RpcTarget } from "cloudflare:workers";
import type { CountedCall, LoggedCall, RequestLog } from "./tenant-rows";
import type { ToolCall, ToolCalls } from "../assistants/tenant/tool-calls";

/** Appends calls to one tenant's request log, and tool calls to its audit. */
export class CallLogFace extends RpcTarget {
  readonly #log: RequestLog;
  readonly #tools: ToolCalls;
  readonly #arm: () => Promise<void>;
  readonly #registered: () => boolean;

  /**
   * @param registered whether the tenant is registered now: a row that arrives after its removal
   *   (a `/v2` row is written a little after its answer) is dropped, not kept by an object whose
   *   alarm no longer purges anything
   */
  constructor(
    log: RequestLog,
    tools: ToolCalls,
    arm: () => Promise<void>,
    registered: () => boolean,
  ) {
    super();
    this.#log = log;
    this.#tools = tools;
    this.#arm = arm;
    this.#registered = registered;
  }

  /**
   * Writes `call` (parsed: a row over its caps is refused); the first row of an empty log sets the
   * alarm for its expiry. Why only the first: a later row expires after the oldest one, whose
   * expiry the alarm already covers (`alarm()` re-arms after each purge), so recomputing and
   * rewriting the alarm on every call would cost the object a storage write per call for nothing.
   * A call that started before the oldest stored row but was written after it is purged up to its
   * duration late; the listing hides it on time (`RequestLog.list` filters by age).
   */
  async record(call: LoggedCall): Promise<void> {
    if (!this.#registered()) return;
    const first = this.#log.isEmpty();
    this.#log.record(call);
    if (first) await this.#arm();
  }

  /** Moves the counters for `call` and stores no row (`REQUEST_LOG=counters`). */
  count(call: CountedCall): void {
    if (this.#registered()) this.#log.count(call);
  }

  /** Writes one tool call of an assistant (parsed likewise) and sets the alarm for its expiry. */
  async tool(call: ToolCall): Promise<void> {
    if (!this.#registered()) return;
    this.#tools.record(call);
    await this.#arm();
  }
}
