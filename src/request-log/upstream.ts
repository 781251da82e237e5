/**
 * @module
 * An API v2 call the gateway makes for a tenant on its own account, not passed through for a
 * caller: an order run's step (`ledger/run-api.ts`, caller `order-run`) or an operator's action
 * (the mapping's check against the books, offboarding, the support bundle's read of the client id;
 * caller `console`, for the admin API and the console alike). One call through the one upstream
 * client, and its row in the tenant's request log, written before the answer is handed back.
 *
 * Why awaited, not left to `ctx.waitUntil` as `/v2` does: these callers have no execution context
 * (a Workflow step has none, and lib code takes none), and a write left running could be cut off
 * when the step or the request ends. It costs one round trip to the tenant's object per call, for
 * a person at a form or a run's step, never a `/v2` caller; and it never fails the call
 * (`recordCall` turns a lost row into a warning).
 */
import type { CallerKind } from "./tenant-rows";
import { readConfig } from "../kernel/config";
import { Problem, PROBLEM_TYPES } from "../kernel/problem";
import {
  callUpstream,
  type CallTrace,
  type UpstreamCall,
  type UpstreamCaller,
} from "../upstream/client";
import { loggedCall, recordCall, type CallFacts } from "./record";

/** Who makes a call, as its row names it: a kind, and an id that tells its callers apart. */
export interface CallerTag {
  kind: CallerKind;
  /** At most 64 characters: an order run's instance id, an operator action's name. */
  id: string | null;
}

/**
 * `callUpstream`, with the call written to the tenant's request log as `by`'s: the API's answer
 * (a failed one's body teed and capped, a failed request's body kept), or the gateway's problem
 * when no answer came (rethrown after the row is written).
 *
 * @param trace filled in as the call goes (attempts, permit wait), for the caller's counts too
 * @returns the API's answer, unread
 * @throws Problem as `callUpstream` does
 * @example
 * const res = await loggedUpstream(caller, call, { kind: "console", id: "offboarding" });
 */
export async function loggedUpstream(
  caller: UpstreamCaller,
  call: UpstreamCall,
  by: CallerTag,
  trace: CallTrace = { attempts: 0, waitedMs: 0, tokenRenewed: false },
): Promise<Response> {
  const mode = readConfig(caller.env).requestLog;
  if (mode === "off") return callUpstream(caller, call, trace);
  const facts: CallFacts = {
    // No inbound request of its own (or one that makes several calls): each call gets its id.
    requestId: crypto.randomUUID(),
    started: Date.now(),
    method: call.method,
    path: call.path,
    search: call.search,
    body: call.body,
    trace,
  };
  const tag = { kind: by.kind, id: by.id?.slice(0, 64) ?? null };
  const record = async (status: number, answer: Response | null) =>
    recordCall(caller.env, caller.tenant, await loggedCall(facts, status, answer, tag));
  let res: Response;
  try {
    res = await callUpstream(caller, call, trace);
  } catch (e) {
    // The gateway's own refusal (no token, no permit in time, timeout): its status, no API answer.
    if (e instanceof Problem) await record(PROBLEM_TYPES[e.type].status, null);
    throw e;
  }
  // Only a failed answer's body is read for the row (a tee: the caller still gets all of it).
  await record(
    res.status,
    res.status >= 400 && mode === "calls"
      ? res.clone()
      : new Response(null, { status: res.status }),
  );
  return res;
}
