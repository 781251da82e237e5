/**
 * @module
 * A call's row of the tenant's request log, made once its answer is known. Nothing secret goes
 * in: a key is named by 8 hex of its SHA-256, the query by its names only, headers never.
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
 * How long a `/v2` call's row waits after the answer was handed over, ms: written at once, it
 * delays the answer still leaving (`npm run bench -- log`: 5–10 ms at the median, none at 20 ms).
 */
export const LOG_WRITE_DELAY_MS = 50;

export interface CallFacts {
  requestId: string;
  started: number;
  method: string;
  /** The path below the v2 root, without the query. */
  path: string;
  search: string;
  body: ArrayBuffer | ReadableStream | null;
  trace: CallTrace;
}

/** A gateway key's short id: 8 hex of its SHA-256, enough to tell keys apart, not to find one. */
export async function keyId(key: string): Promise<string> {
  return (await sha256Hex(key)).slice(0, 8);
}

/** The query's names, without their values (which can be secrets). */
export function queryNames(search: string): string[] {
  return [...new Set(new URLSearchParams(search).keys())].slice(0, 50).map((n) => n.slice(0, 200));
}

/** The row of a call answered `status` by `res` (null: the gateway's own problem), capped. */
export async function loggedCall(
  facts: CallFacts,
  status: number,
  res: Response | null,
  caller: LoggedCall["caller"],
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

/** Writes `call` as far as `REQUEST_LOG` says. Never throws: a lost row fails no call. */
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

export interface CallerTag {
  kind: CallerKind;
  id: string | null;
}

/**
 * Logs a `/v2` call off the answer's path, in `waitUntil`, `LOG_WRITE_DELAY_MS` after it.
 *
 * @param who names the caller; a function, so a key's hash is made off the answer's path too
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

export function keyTag(caller: Caller): () => Promise<CallerTag> {
  return async () => ({ kind: "key", id: await keyId(caller.key) });
}

/** The error body, capped: the API's errors are small ProblemDetails, read whole, then cut. */
async function capped(res: Response): Promise<string> {
  const text = await res.text();
  return text.slice(0, API_ERROR_CHARS);
}
