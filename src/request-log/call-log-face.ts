/**
 * @module
 * The tenant object's append-only face for its request log and tool-call audit. Unchecked, unlike
 * `forKey`, which would hash the key again for every row: whoever holds the namespace binding can
 * add rows here, bounded, and read none.
 */
import { RpcTarget } from "cloudflare:workers";
import type { CountedCall, LoggedCall, RequestLog } from "./tenant-rows";
import type { ToolCall, ToolCalls } from "../assistants/tenant/tool-calls";

export class CallLogFace extends RpcTarget {
  readonly #log: RequestLog;
  readonly #tools: ToolCalls;
  readonly #arm: () => Promise<void>;
  readonly #registered: () => boolean;

  /** @param registered false once the tenant is removed: a late row is dropped, never kept. */
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

  /** Writes `call`; only the first row of an empty log arms the alarm (re-armed on each purge). */
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

  /** Writes one tool call of an assistant and sets the alarm for its expiry. */
  async tool(call: ToolCall): Promise<void> {
    if (!this.#registered()) return;
    this.#tools.record(call);
    await this.#arm();
  }
}
