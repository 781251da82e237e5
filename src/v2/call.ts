/**
 * @module
 * One API v2 call shaped, sent and logged: the one pipeline of `/v2` and of MCP tools' calls, so
 * the two cannot drift apart.
 */
import type { V2Request } from "./passthrough";
import { Problem, PROBLEM_TYPES } from "../kernel/problem";
import { logAfterAnswer, type CallerTag, type CallFacts } from "../request-log/record";
import { shapedV2 } from "./shaping/v2";
import type { CallTrace } from "../upstream/client";

/**
 * Answers `r` and logs it after the answer; an error that is not a `Problem` goes unlogged.
 *
 * @example const res = await performV2(c.executionCtx, r, keyTag(c.var.caller), trace)
 */
export async function performV2(
  ctx: Pick<ExecutionContext, "waitUntil">,
  r: V2Request,
  who: () => Promise<CallerTag>,
  trace: CallTrace,
  started = Date.now(),
): Promise<Response> {
  const facts: CallFacts = { ...r, started, trace };
  try {
    // What follows a write's answer (its announcement) is not awaited by it.
    const res = await shapedV2({ ...r, after: (work) => ctx.waitUntil(work) }, trace);
    logAfterAnswer(ctx, r.env, r.caller.tenant, who, facts, res.status, res);
    return res;
  } catch (e) {
    if (e instanceof Problem)
      logAfterAnswer(ctx, r.env, r.caller.tenant, who, facts, PROBLEM_TYPES[e.type].status, null);
    throw e;
  }
}
