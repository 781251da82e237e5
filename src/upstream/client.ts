/**
 * @module
 * The one client of the API v2, used by the pass-through and the workflows alike. Per call: a token
 * from the tenant's object (for a gateway key seen in the last seconds, from the isolate's
 * `AccessCache` instead: see `access-cache.ts`), a permit from the environment's governor, the
 * exchange, and the retry rules below. It never retries a write blindly.
 */
import type { Environment, EnvironmentConfig, Bindings } from "../kernel/config";
import { problemOf, type Outcome } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import {
  asGrantHolder,
  asKeyHolder,
  asRun,
  asWatcher,
  governorStub,
  tenantStub,
  type TenantName,
} from "../kernel/stubs";
import type { AccessCache, KeyAccess } from "./access-cache";
import { leaving } from "./departure";
import { exchange, retryAfterSeconds } from "./transport";

/** A token with less than this left when its call is about to leave is fetched again, ms. */
const TOKEN_MIN_LEFT_AT_SEND_MS = 30_000;

/**
 * The part of a call's remaining time kept for the API's answer, ms: a permit is only waited for
 * while at least this much (or half of what is left, for a short deadline) would remain. Without it
 * a caller queued to the end of its deadline got its permit with milliseconds to spare, sent the
 * call anyway (spending the shared budget) and answered 504 before the API could: `npm run bench
 * -- load` counted 9 such 504s at 50 req/s, each after 29.99 s in the queue.
 */
export const ANSWER_RESERVE_MS = 1000;

/** How long a call with `remainingMs` left may wait for its permit, ms. */
export function permitWaitMs(remainingMs: number): number {
  return remainingMs - Math.min(ANSWER_RESERVE_MS, remainingMs / 2);
}

/** Methods that are safe to resend after a 429/503, since they change nothing. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whose traffic a call is, for the governor (`upstream/rate/lanes.ts`): `caller` for a gateway
 * key's own `/v2` calls and an order run's steps, `assistant` for the upstream calls of an MCP tool
 * (`assistants/mcp/`), both of the first class, the assistant in a fair-queue lane of its own
 * beside its tenant's callers; `watcher` for the events watcher's polls (issue 30), the low class,
 * served only from what the first class leaves, up to its share (`upstream/rate/watcher-room.ts`).
 * Token requests and onboarding's calls are always the caller's. The watcher's lane also backs off
 * first here: it never waits out a 429 (see below).
 */
export type Lane = "caller" | "assistant" | "watcher";

/** Who is calling, and with what. */
export interface UpstreamCaller {
  env: Bindings;
  environment: Environment;
  config: EnvironmentConfig;
  tenant: TenantName;
  /**
   * The caller's gateway key, authenticated by the tenant's object before anything is spent; or,
   * for an order run (which a verified webhook started for this tenant), the registration it was
   * started under, which must still be the tenant's (see `tenant/tenant-object.ts`); or an
   * assistant's OAuth grant, which must still be live (`tenant/grant-face.ts`); or, for the
   * tenant's watcher, the books it reads, which must still be the tenant's
   * (`events/watcher/watcher-face.ts`).
   */
  credential:
    { gatewayKey: string } | { registration: string } | { grant: string } | { watcher: string };
  /**
   * The isolate's verified keys (and grants), for a gateway-key or grant credential; without it
   * every call asks the tenant's object.
   */
  accessCache?: AccessCache;
  /** Whose traffic this is (`Lane`); a caller's own when absent. */
  lane?: Lane;
}

/** One API v2 call. `body` is a buffer when it may be resent, a stream when it may not. */
export interface UpstreamCall {
  method: string;
  /** Path below the v2 root, starting with `/`, already checked (see `v2/path.ts`). */
  path: string;
  search: string;
  headers: Headers;
  body: ArrayBuffer | ReadableStream | null;
  /** Epoch ms by which the caller needs an answer. */
  deadline: number;
  /**
   * The longest wait for a permit, ms, when shorter than the deadline allows: the watcher takes a
   * permit only when one is there, it does not queue behind callers for long.
   */
  maxPermitWaitMs?: number;
}

/** What happened on the way, for logs and counters. */
export interface CallTrace {
  attempts: number;
  waitedMs: number;
  tokenRenewed: boolean;
}

/**
 * Sends `call` for the tenant and returns the API's response unchanged, or throws a `Problem` when
 * the gateway cannot get an answer (no token, no permit in time, timeout, connection failure).
 *
 * Retries: a 401 once with a new token (the token may have been revoked; a second 401 is the API's
 * answer). A 429/503 only for safe methods, after its Retry-After, within the deadline; a 429 also
 * slows the environment's pace (and pauses it when 429s repeat). A write is resent only after a
 * 401, which the API answers before it reads the body, and only when the body is buffered.
 */
export async function callUpstream(
  caller: UpstreamCaller,
  call: UpstreamCall,
  trace: CallTrace = { attempts: 0, waitedMs: 0, tokenRenewed: false },
): Promise<Response> {
  const governor = governorStub(caller.env, caller.environment);
  const replayable = call.body === null || call.body instanceof ArrayBuffer;
  const credential = caller.credential;
  const cache = caller.accessCache;
  /** A holder's token: the isolate's copy, unless `fresh`; otherwise `ask`'s (its face's). */
  const cached = (id: string, ask: () => Promise<Outcome<KeyAccess>>, fresh: boolean) =>
    cache ? cache.access(caller.tenant, id, ask, fresh) : ask();
  /**
   * The tenant's token; `fresh` asks the tenant's object even when the isolate holds a copy. Each
   * face is asked in the round trip that hands it out (pipelined), as `access` was before. A
   * grant's copy is filed under its id (`grant:<id>`, no secret): the MCP door asked the tenant's
   * object about the grant before this request got here, so a copy only spares the request's later
   * calls a hop, and a revoked grant's requests never reach this (`assistants/mcp-key.ts`).
   */
  const tokenFor = async (fresh = false) => {
    const access = await ("gatewayKey" in credential
      ? cached(
          credential.gatewayKey,
          () =>
            asKeyHolder(caller.env, { tenant: caller.tenant, key: credential.gatewayKey }, (f) =>
              f.access(),
            ),
          fresh,
        )
      : "grant" in credential
        ? cached(
            `grant:${credential.grant}`,
            () =>
              asGrantHolder(caller.env, { tenant: caller.tenant, grant: credential.grant }, (f) =>
                f.access(),
              ),
            fresh,
          )
        : "watcher" in credential
          ? asWatcher(caller.env, caller.tenant, (f) => f.access(credential.watcher))
          : asRun(caller.env, caller.tenant, credential.registration, (f) => f.access()));
    if (!access.ok) throw problemOf(access.error);
    return access.value;
  };
  let renewedAfter401 = false;
  for (;;) {
    const remaining = call.deadline - Date.now();
    if (remaining <= 0)
      throw new Problem("upstream-timeout", "The call's deadline passed before it could be sent.");
    // The key is authenticated before a permit is taken, so forged keys cannot spend the shared
    // budget.
    let access = await tokenFor();
    // The watcher takes a permit only when one is there soon (`maxPermitWaitMs`): it does not
    // queue behind callers for long.
    const maxWait = Math.min(permitWaitMs(remaining), call.maxPermitWaitMs ?? Infinity);
    const permit = await governor.acquire(caller.tenant, maxWait, caller.lane ?? "caller");
    if (!permit.ok) {
      throw new Problem(
        "unavailable",
        `The ${caller.environment} environment's shared rate limit cannot take this call before its deadline.`,
        {
          headers: { "retry-after": String(permit.retryAfterSeconds) },
        },
      );
    }
    // A long wait for the permit may have aged the token: ask again (a cheap hop) rather than send
    // a stale one.
    if (access.expiresAt - Date.now() < TOKEN_MIN_LEFT_AT_SEND_MS) {
      access = await tokenFor(true);
    }
    trace.waitedMs += permit.waitedMs;
    trace.attempts++;
    const headers = new Headers(call.headers);
    headers.set("authorization", `Bearer ${access.token}`);
    headers.set("ocp-apim-subscription-key", caller.config.subscriptionKey);
    // If this isolate was too busy to send it when granted, the governor counts it from later.
    const result = await leaving(
      governor,
      permit,
      exchange(
        caller.env,
        `${caller.config.apiBaseUrl}${call.path}${call.search}`,
        {
          method: call.method,
          headers,
          body: call.body,
        },
        call.deadline - Date.now(),
      ),
    );
    if (!result.ok) {
      throw result.failure === "timeout"
        ? new Problem("upstream-timeout", "The accounting API did not answer before the deadline.")
        : new Problem(
            "upstream-failed",
            "The connection to the accounting API failed (reset or refused) before an answer came.",
          );
    }
    const res = result.response;
    if (res.status === 401) {
      // Whether or not this call can be resent, the token is no good: drop this isolate's copies of
      // it first (so the retry asks the object), then the object's token (if still current).
      cache?.dropToken(access.token);
      await tenantStub(caller.env, caller.tenant).invalidate(access.token);
      if (!renewedAfter401 && replayable) {
        renewedAfter401 = true;
        trace.tokenRenewed = true;
        await res.body?.cancel();
        continue;
      }
    }
    if (res.status === 429 || res.status === 503) {
      const wait = retryAfterSeconds(res.headers.get("retry-after"));
      if (res.status === 429) await governor.throttled(wait, permit.permit);
      // The watcher backs off first: it takes the 429 as its answer and polls again next cycle,
      // after the Retry-After, rather than wait here for a permit it would then hold.
      const resend = caller.lane !== "watcher" && SAFE_METHODS.has(call.method);
      if (resend && Date.now() + wait * 1000 < call.deadline) {
        await res.body?.cancel();
        await scheduler.wait(wait * 1000);
        continue;
      }
    }
    return res;
  }
}
