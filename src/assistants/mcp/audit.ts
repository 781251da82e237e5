/**
 * @module
 * Every tool call, audited: `guarded` runs a tool's body, turns whatever it throws into an
 * `isError` result (`results.ts`), and writes one row of the tenant's tool-call audit
 * (`assistants/tenant/tool-calls.ts`) after the answer: time, principal, scope, tool, the operation
 * it touched, outcome, upstream calls and a write's idempotency key. The upstream calls themselves
 * are rows of the request log, named by the same principal and the tool call's request id.
 *
 * Invariant: a row names its operation only by the catalog's key (a template); a path outside the
 * catalog becomes a fixed marker, with no detail since its error quotes the path
 * (`withoutArguments`).
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { withoutArguments, type ToolCall } from "../tenant/tool-calls";
import type { Principal } from "./principal";
import type { AssistantPort, ToolRun } from "./port";
import { errorResult, refusalOf } from "./results";

/** What every tool is given besides its arguments. */
export interface ToolContext {
  principal: Principal;
  port: AssistantPort;
  /** The MCP request's id (also the gateway's `X-Request-Id`). */
  requestId: string;
  /** Writes an audit row off the answer's path; never throws. */
  audit(call: ToolCall): void;
}

/** What a tool's body reports of itself while it runs, for its audit row. */
export interface ToolStep {
  run: ToolRun;
  /**
   * The catalog operation it touched, `METHOD /Path/{id}`; anything else is audited as outside the
   * catalog.
   */
  operation: string | null;
  /** A confirmed write's idempotency key. */
  idempotencyKey: string | null;
}

/** Longest error detail kept in an audit row, characters. */
const AUDIT_DETAIL_CHARS = 300;

/**
 * Runs `body` as tool `tool` of `tc`'s session: its result, or its error as an `isError` result;
 * either way one audit row.
 *
 * @example server.registerTool("read", config, (args) => guarded(tc, "read", (step) => read(args,
 * step)))
 */
export async function guarded(
  tc: ToolContext,
  tool: string,
  body: (step: ToolStep) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const started = Date.now();
  const step: ToolStep = {
    run: { requestId: tc.requestId, calls: 0, upstreamCalls: 0 },
    operation: null,
    idempotencyKey: null,
  };
  let result: CallToolResult;
  let outcome: ToolCall["outcome"] = "ok";
  let detail: string | null = null;
  try {
    result = await body(step);
  } catch (err) {
    const refusal = refusalOf(err, tc.requestId);
    result = errorResult(refusal.message);
    outcome = refusal.outcome;
    detail = refusal.message.slice(0, AUDIT_DETAIL_CHARS);
  }
  tc.audit(
    withoutArguments({
      requestId: tc.requestId.slice(0, 200),
      at: started,
      principal: tc.principal.id,
      scope: tc.principal.scope,
      tool,
      operation: step.operation?.slice(0, 300) ?? null,
      outcome,
      detail,
      upstreamCalls: step.run.upstreamCalls,
      idempotencyKey: step.idempotencyKey,
      durationMs: Math.max(0, Date.now() - started),
    }),
  );
  return result;
}
