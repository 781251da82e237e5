/**
 * @module
 * The `AssistantPort` of a session, authenticated with a gateway key or an OAuth grant: every call
 * goes where the same `/v2` call of that key would go (`readV2Request`, then `performV2`), so an
 * assistant's request is checked, shaped, paced and logged exactly as the key holder's own; the one
 * difference is its lane (`assistant`) and its name in the log. Under a grant, each reach into the
 * tenant's object goes through the grant's face (`tenant/grant-face.ts`), which opens only
 * what the tools need and checks the grant again every time. The credential stays inside this
 * closure: the tools get the port, never the key or the grant.
 */
import type { Holder } from "../../kernel/app";
import type { Bindings } from "../../kernel/config";
import { unwrap } from "../../kernel/outcome";
import { readV2Request, type V2Request } from "../../v2/passthrough";
import type { CallerTag } from "../../request-log/record";
import { checkWrite } from "../../v2/shaping/write-body";
import { asHolder, type HolderStub } from "../../kernel/stubs";
import type { AccessCache } from "../../upstream/access-cache";
import type { CallTrace } from "../../upstream/client";
import { performV2 } from "../../v2/call";
import type { ApiCall, AssistantPort } from "./port";

/** What the port needs of the request that opened the session. */
export interface HolderPortDeps {
  env: Bindings;
  ctx: Pick<ExecutionContext, "waitUntil">;
  /** The authenticated key's caller or grant (`assistants/mcp-key.ts`). */
  caller: Holder;
  /**
   * The isolate's verified keys and grants (a grant's copy is used only after the door checked the
   * grant for this request).
   */
  accessCache?: AccessCache;
  /** The gateway's origin, for the links in answers (`Location`). */
  origin: string;
  /** The principal's id, as the request log names its calls. */
  principalId: string;
}

/**
 * The port of a gateway key's or an OAuth grant's session.
 *
 * @example const port = holderPort({ env, ctx, caller, origin, principalId: "key:0123abcd" })
 */
export function holderPort(d: HolderPortDeps): AssistantPort {
  const who = (): Promise<CallerTag> => Promise.resolve({ kind: "assistant", id: d.principalId });
  const request = (call: ApiCall, requestId: string): Promise<V2Request> => {
    const headers = new Headers();
    if (call.json !== null) headers.set("content-type", call.mediaType ?? "application/json");
    if (call.idempotencyKey) headers.set("idempotency-key", call.idempotencyKey);
    const req = new Request(`${d.origin}/v2${call.path}${call.search}`, {
      method: call.method,
      headers,
      body: call.json,
    });
    return readV2Request(d.env, d.caller, req, requestId, d.accessCache, "assistant");
  };
  const own = <T>(call: (face: HolderStub) => T) => asHolder(d.env, d.caller, call);
  return {
    async check(call) {
      const r = await request(call, "check");
      if (r.method !== "GET") checkWrite(r);
    },
    async send(call, run) {
      const trace: CallTrace = { attempts: 0, waitedMs: 0, tokenRenewed: false };
      run.calls++;
      try {
        const r = await request(call, `${run.requestId}.${run.calls}`);
        return await performV2(d.ctx, r, who, trace);
      } finally {
        run.upstreamCalls += trace.attempts;
      }
    },
    async stash(ask) {
      return unwrap(await own((f) => f.confirmationStash(ask)));
    },
    async take(handleHash, principal) {
      return unwrap(await own((f) => f.confirmationTake({ handleHash, principal })));
    },
    async orderRun(source, orderId) {
      return unwrap(await own((f) => f.orderRun(source, orderId)));
    },
    async orderRuns(state, limit) {
      return unwrap(await own((f) => f.orderRuns(state, limit)));
    },
  };
}
