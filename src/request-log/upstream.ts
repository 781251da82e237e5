/**
 * @module
 * A call the gateway makes for a tenant on its own account (a run's step, an operator's action,
 * the watcher), its row written before the answer is handed back: these callers have no
 * `waitUntil`, and a write left running could be cut off when the step ends.
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

/** Who makes a call, as its row names it. */
export interface CallerTag {
  kind: CallerKind;
  /** A run's instance id, an operator action's name (cut to 64 characters). */
  id: string | null;
  /** The order runs a shared call served (`orders/tenant/shared-calls.ts`). */
  served?: string[];
}

/**
 * `callUpstream`, logged as `by`'s call; answers the API's answer unread.
 *
 * @throws Problem as `callUpstream` does, after its row is written
 * @example const res = await loggedUpstream(caller, call, { kind: "console", id: "offboarding" });
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
    requestId: crypto.randomUUID(),
    started: Date.now(),
    method: call.method,
    path: call.path,
    search: call.search,
    body: call.body,
    trace,
  };
  const tag = {
    kind: by.kind,
    id: by.id?.slice(0, 64) ?? null,
    ...(by.served ? { served: by.served.slice(0, 50) } : {}),
  };
  const record = async (status: number, answer: Response | null) =>
    recordCall(caller.env, caller.tenant, await loggedCall(facts, status, answer, tag));
  let res: Response;
  try {
    res = await callUpstream(caller, call, trace);
  } catch (e) {
    if (e instanceof Problem) await record(PROBLEM_TYPES[e.type].status, null);
    throw e;
  }
  // Only a failed answer's body is read for the row (a clone: the caller still gets all of it).
  await record(
    res.status,
    res.status >= 400 && mode === "calls"
      ? res.clone()
      : new Response(null, { status: res.status }),
  );
  return res;
}
