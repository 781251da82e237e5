/**
 * @module
 * Every tool call, audited: `guarded` runs a tool's body, turns what it throws into an `isError`
 * result, and writes one row (`assistants/tenant/tool-calls.ts`). Invariant: a row names its
 * operation only by the catalog's key, never a path (`withoutArguments`).
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
  requestId: string;
  /** Writes an audit row off the answer's path; never throws. */
  audit(call: ToolCall): void;
}

export interface ToolStep {
  run: ToolRun;
  /** The catalog operation it touched, `METHOD /Path/{id}`. */
  operation: string | null;
  idempotencyKey: string | null;
}

const AUDIT_DETAIL_CHARS = 300;

/**
 * Runs `body` as tool `tool`: its result, or its error as an `isError` result; one audit row.
 * @example guarded(tc, "read", (step) => read(args, step))
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
