/**
 * @module
 * A call's row of the tenant's request log (`request-log/tenant-rows.ts`), made once its answer
 * is known: a `/v2` call's is written after the answer left (`ctx.waitUntil`), an order run's in
 * its step, after the call (`ledger/run-api.ts`). Nothing secret goes in: the
 * key is named by the first 8 hex of its SHA-256 (not enough to find it, enough to tell keys
 * apart), the query keeps its parameter names only (a value can be a secret), headers are never
 * read. The API's error body and, for a failed call, the request body are kept, capped.
 */
import { sha256Hex } from "../kernel/crypto";
import type { Caller } from "../kernel/app";
import { readConfig, type Bindings } from "../kernel/config";
import { log } from "../kernel/log";
import { toCallLog, type TenantName } from "../kernel/stubs";
import type { CallTrace } from "../upstream/client";
import {
  API_ERROR_CHARS,
  REQUEST_BODY_CHARS,
  type LoggedCall,
  type CallerKind,
} from "./tenant-rows";

/**
 * How long a `/v2` call's row waits after the answer was handed to the runtime, ms. Why wait at
 * all: `ctx.waitUntil` starts its work at once, in the same turn in which the runtime is about to
 * send the answer, so the row's write (the key's hash, the call to the tenant's object, its SQLite
 * write) ran while the answer was still leaving and delayed it: `npm run bench -- log` measured 5
 * to 10 ms more at the median on the loaded 2-core machine, with `scheduler.wait(0)` still about
 * half of that, and none with 20 ms. 50 leaves room for a slower flush; the row is not urgent, and
 * the isolate's wait costs no CPU time.
 */
export const LOG_WRITE_DELAY_MS = 50;

/** What the caller knows of a call when its answer is made. */
export interface CallFacts {
  requestId: string;
  started: number;
  method: string;
  /** The path below the v2 root, without the query. */
  path: string;
  search: string;
  /** The request body when it was buffered (a stream is not kept). */
  body: ArrayBuffer | ReadableStream | null;
  trace: CallTrace;
}

/** The short, non-secret id of a gateway key: the first 8 hex of its SHA-256. */
export async function keyId(key: string): Promise<string> {
  return (await sha256Hex(key)).slice(0, 8);
}

/** The query's parameter names, without their values (which can be secrets). */
export function queryNames(search: string): string[] {
  return [...new Set(new URLSearchParams(search).keys())].slice(0, 50).map((n) => n.slice(0, 200));
}

/**
 * The row of a call answered with `status`, `res` being that answer (null: the gateway's own
 * problem). A failed answer of the API keeps its body (`res` is then a clone, read here, capped)
 * and the request's body; a success keeps neither.
 */
export async function loggedCall(
  facts: CallFacts,
  status: number,
  res: Response | null,
  caller: { kind: CallerKind; id: string | null },
): Promise<LoggedCall> {
  const failed = status >= 400;
  // The API answered only when an attempt went out: a cached or replayed answer is the gateway's.
  const api = facts.trace.attempts > 0 ? res : null;
  const apiError = api && failed ? await capped(api) : null;
  if (api && !failed) await api.body?.cancel();
  return {
    requestId: facts.requestId.slice(0, 200),
    at: facts.started,
    method: facts.method,
    path: facts.path.slice(0, 2000),
    query: queryNames(facts.search),
    status,
    apiStatus: api?.status ?? null,
    apiError,
    attempts: facts.trace.attempts,
    waitedMs: Math.max(0, Math.round(facts.trace.waitedMs)),
    durationMs: Math.max(0, Date.now() - facts.started),
    caller,
    body:
      failed && facts.body instanceof ArrayBuffer
        ? new TextDecoder().decode(facts.body).slice(0, REQUEST_BODY_CHARS)
        : null,
  };
}

/**
 * Writes `call` to the log of `tenant` (whose caller was authenticated before the call was sent: a
 * gateway key, the registration an order run was started under, or the operator), as far as
 * `REQUEST_LOG` says: the row and the counters, the counters only, or nothing. Never throws: a lost
 * row must not fail a call that was already answered, nor the run's step or the operator's action
 * that made it.
 */
export async function recordCall(
  env: Bindings,
  tenant: TenantName,
  call: LoggedCall,
): Promise<void> {
  const mode = readConfig(env).requestLog;
  if (mode === "off") return;
  try {
    if (mode === "calls") await toCallLog(env, tenant, (f) => f.record(call));
    else {
      const { status, apiStatus, attempts, waitedMs } = call;
      await toCallLog(env, tenant, (f) => f.count({ status, apiStatus, attempts, waitedMs }));
    }
  } catch (e) {
    log.warn("request-log-failed", { requestId: call.requestId, error: String(e) });
  }
}

/** Who made a call, as its row names it: a kind and a short, non-secret id. */
export interface CallerTag {
  kind: CallerKind;
  id: string | null;
}

/**
 * Logs a `/v2` call (a gateway key's, or an MCP tool's through `v2/call.ts`) once it is
 * answered, off the answer's path: everything (naming the caller, the error body's read, the write
 * to the tenant's object) runs in `ctx.waitUntil`, `LOG_WRITE_DELAY_MS` after the response was
 * handed over. What that costs the caller: nothing in time (`npm run bench -- log` measures it
 * against `REQUEST_LOG=off`); the isolate stays up that much longer and for one more round trip to
 * the tenant's object, and a failed answer's body is teed (`clone`) to be read here. With
 * `REQUEST_LOG=off` none of it happens; with `counters` no body is teed.
 *
 * @param tenant whose log it goes to (its caller was authenticated before the call was sent)
 * @param who names the caller; a function, so a key's hash is made off the answer's path too
 * @param status what the caller was answered
 * @param res the answer, for one of 400 or more (a clone is read); null for a gateway's problem
 */
export function logAfterAnswer(
  ctx: Pick<ExecutionContext, "waitUntil">,
  env: Bindings,
  tenant: TenantName,
  who: () => Promise<CallerTag>,
  facts: CallFacts,
  status: number,
  res: Response | null,
): void {
  const mode = readConfig(env).requestLog;
  if (mode === "off") return;
  // Only a failed answer is teed, and only for a row: a success's body streams to the caller
  // untouched.
  const copy =
    res && status >= 400 && mode === "calls"
      ? res.clone()
      : res && new Response(null, { status: res.status });
  ctx.waitUntil(
    (async () => {
      await scheduler.wait(LOG_WRITE_DELAY_MS);
      const call = await loggedCall(facts, status, copy, await who());
      await recordCall(env, tenant, call);
    })(),
  );
}

/** The tag of a gateway key's own calls: kind `key`, the key's short hash. */
export function keyTag(caller: Caller): () => Promise<CallerTag> {
  return async () => ({ kind: "key", id: await keyId(caller.key) });
}

/** The error body, capped. Errors of the API are small (ProblemDetails): read whole, then cut. */
async function capped(res: Response): Promise<string> {
  const text = await res.text();
  return text.slice(0, API_ERROR_CHARS);
}
