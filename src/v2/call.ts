/**
 * @module
 * One API v2 call performed for an authenticated caller: shaped as its headers ask
 * (`v2/shaping/`), sent through the governor, and written to the tenant's request log once
 * answered. The one pipeline of `/v2` (`v2/routes.ts`) and of an MCP tool's calls
 * (`assistants/mcp/holder-port.ts`): an idempotent write confirmed by an assistant goes exactly
 * where a `/v2` write with `Idempotency-Key` goes, so the two cannot drift apart, and whatever is
 * added to writes here (the events issue announces them) covers both.
 */
import type { V2Request } from "./passthrough";
import { Problem, PROBLEM_TYPES } from "../kernel/problem";
import { logAfterAnswer, type CallerTag, type CallFacts } from "../request-log/record";
import { shapedV2 } from "./shaping/v2";
import type { CallTrace } from "../upstream/client";

/**
 * Answers `r` (read and checked by `readV2Request`) and logs it as `who`'s call, after the answer.
 * Throws the gateway's `Problem` as `shapedV2` does (logged too); any other error is left to the
 * caller's error boundary, unlogged, as before.
 *
 * @param ctx keeps the isolate up for the log's write and the write's announcement
 * @param r the request, its path, operation and body checked as far as reading goes
 * @param who names the caller in the log (`keyTag`, or an assistant's principal)
 * @param trace filled in as the call goes (attempts, permit wait)
 * @param started epoch ms the call arrived (its log row's time and duration start there)
 * @returns the answer, as `/v2` gives it
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
    // What follows a write's answer (announcing it, `events/announce.ts`) is not awaited by it.
    const res = await shapedV2({ ...r, after: (work) => ctx.waitUntil(work) }, trace);
    logAfterAnswer(ctx, r.env, r.caller.tenant, who, facts, res.status, res);
    return res;
  } catch (e) {
    if (e instanceof Problem)
      logAfterAnswer(ctx, r.env, r.caller.tenant, who, facts, PROBLEM_TYPES[e.type].status, null);
    throw e;
  }
}
