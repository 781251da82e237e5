/**
 * @module
 * What a tool answers: a shaped result as `structuredContent` and as text, and a failure the model
 * can act on (the gateway's refusal, the API's, a full budget) as an `isError` result. Protocol
 * errors stay the SDK's. No text here ever holds a credential.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { log } from "../../kernel/log";
import { platformProblem, Problem, PROBLEM_TYPES } from "../../kernel/problem";
import type { ToolOutcome } from "../tenant/tool-calls";

/** An `isError` result's message and how the audit counts it. */
export class ToolRefusal extends Error {
  constructor(
    message: string,
    readonly outcome: Exclude<ToolOutcome, "ok"> = "error",
  ) {
    super(message);
    this.name = "ToolRefusal";
  }
}

/**
 * A success with a shape: `value` as `structuredContent` and as JSON text.
 * @example return structured({ operations, matched, shown })
 */
export function structured(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** An `isError` result with `message`. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

function retryAfter(value: string | null | undefined): number | null {
  const n = Number(value);
  return value && Number.isFinite(n) && n >= 0 ? Math.ceil(n) : null;
}

function tryAgain(seconds: number): string {
  return `Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
}

/**
 * The refusal a thrown error stands for: a gateway `Problem` as its detail and fields, anything
 * else as a generic failure naming the request id (its text is never shown).
 */
export function refusalOf(err: unknown, requestId: string): ToolRefusal {
  if (err instanceof ToolRefusal) return err;
  const problem = err instanceof Problem ? err : platformProblem(err);
  if (problem) {
    const { status, title } = PROBLEM_TYPES[problem.type];
    const fields = (problem.extra.errors ?? []).map(
      (e) => `\n- ${e.path || "(body)"}: ${e.message}`,
    );
    const wait = retryAfter(problem.extra.headers?.["retry-after"]);
    const text = `${title} (${status}): ${problem.detail}${fields.join("")}`;
    // A 503 with Retry-After is the shared budget: the call was not made, and will be later. A
    // 409 in flight says when to repeat too.
    return new ToolRefusal(
      wait === null ? text : `${text} ${tryAgain(wait)}`,
      status === 503 && wait !== null ? "retry" : "error",
    );
  }
  log.error("mcp-tool-failed", {
    requestId,
    error: err instanceof Error ? err.name : "unknown",
  });
  return new ToolRefusal(
    `The gateway failed to handle this tool call. Quote request id ${requestId} when you report it.`,
  );
}

/** A refusal for an API answer that is not a success (its status and ProblemDetails), or null. */
export async function apiRefusal(res: Response, what: string): Promise<ToolRefusal | null> {
  if (res.status < 400) return null;
  const text = await res.text();
  let detail = text.slice(0, 2000);
  try {
    const p = JSON.parse(text) as Record<string, unknown>;
    // ProblemDetails (`title`, `detail`, `errors`), or the API gateway's own `{ message }`.
    const parts = [p.title, p.detail, p.message].filter((x): x is string => typeof x === "string");
    const errors = p.errors && typeof p.errors === "object" ? JSON.stringify(p.errors) : "";
    if (parts.length > 0 || errors) detail = [...parts, errors].filter(Boolean).join(" ");
  } catch {
    // Not JSON: its first characters are the detail.
  }
  const wait = retryAfter(res.headers.get("retry-after"));
  const busy = (res.status === 429 || res.status === 503) && wait !== null;
  const message = `The API answered ${res.status} to ${what}${detail ? `: ${detail}` : "."}`;
  return new ToolRefusal(busy ? `${message} ${tryAgain(wait)}` : message, busy ? "retry" : "error");
}
