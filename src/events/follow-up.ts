/**
 * @module
 * The one read that follows a write whose answer does not show the new state: a GET with the
 * write caller's credential, logged with caller kind `events`.
 */
import { holderCaller } from "../kernel/holder-caller";
import type { V2Request } from "../v2/passthrough";
import { loggedCall, recordCall, type CallFacts } from "../request-log/record";
import { callUpstream, type CallTrace } from "../upstream/client";

/** A follow-up read's deadline, ms (a permit wait included). */
const READ_DEADLINE_MS = 15_000;

/** One logged GET for the write's caller; the rows of a JSON list answer (or its one object). */
export async function readRows(
  r: V2Request,
  path: string,
  search: string,
): Promise<Record<string, unknown>[]> {
  const trace: CallTrace = { attempts: 0, waitedMs: 0, tokenRenewed: false };
  const facts: CallFacts = {
    requestId: crypto.randomUUID(),
    started: Date.now(),
    method: "GET",
    path,
    search,
    body: null,
    trace,
  };
  const res = await callUpstream(
    holderCaller(r),
    {
      method: "GET",
      path,
      search,
      headers: new Headers({ accept: "application/json", "user-agent": "ledgergate-events" }),
      body: null,
      deadline: Date.now() + READ_DEADLINE_MS,
    },
    trace,
  );
  const text = await res.text();
  await recordCall(
    r.env,
    r.caller.tenant,
    await loggedCall(
      facts,
      res.status,
      new Response(res.status >= 400 ? text : null, { status: res.status }),
      {
        kind: "events",
        id: null,
      },
    ),
  );
  if (res.status !== 200) return [];
  const value: unknown = JSON.parse(text);
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is Record<string, unknown> => !!v && typeof v === "object");
}
