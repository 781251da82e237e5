/**
 * @module
 * The `AssistantPort` of a session: every call goes where the same `/v2` call of its key or grant
 * would go, checked, shaped, paced and logged alike (only its lane and log name differ). The
 * credential stays inside this closure. See docs/design/faces.md.
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

export interface HolderPortDeps {
  env: Bindings;
  ctx: Pick<ExecutionContext, "waitUntil">;
  /** The authenticated key's caller or grant (`assistants/mcp-key.ts`). */
  caller: Holder;
  /** The isolate's verified copies (a grant's only after the door checked it for this request). */
  accessCache?: AccessCache;
  /** The gateway's origin, for the links in answers (`Location`). */
  origin: string;
  principalId: string;
}

/**
 * The port of a gateway key's or an OAuth grant's session.
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
