/**
 * @module The one client of the API v2: per call a token, a permit of the environment's governor
 * (docs/design/rate-governor.md), the exchange, and the retry rules. Never retries a write blindly.
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

/** Time kept for the API's answer, ms (half, for a short deadline): no permit for a sure 504. */
export const ANSWER_RESERVE_MS = 1000;

export function permitWaitMs(remainingMs: number): number {
  return remainingMs - Math.min(ANSWER_RESERVE_MS, remainingMs / 2);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whose traffic a call is: `caller` (also order runs, tokens, onboarding) and `assistant` (an MCP
 * tool's) come first; `watcher` takes only what they leave, and never waits out a 429.
 */
export type Lane = "caller" | "assistant" | "watcher";

export interface UpstreamCaller {
  env: Bindings;
  environment: Environment;
  config: EnvironmentConfig;
  tenant: TenantName;
  /** Checked by the tenant's object before anything is spent. */
  credential:
    | { gatewayKey: string }
    | { registration: string; run?: string }
    | { grant: string }
    | { watcher: string };
  accessCache?: AccessCache;
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
  deadline: number;
  /** The longest wait for a permit, ms, when shorter than the deadline allows. */
  maxPermitWaitMs?: number;
}

export interface CallTrace {
  attempts: number;
  waitedMs: number;
  tokenRenewed: boolean;
}

/**
 * The API's response to `call`, unchanged, or a thrown `Problem` when none can be had. Retries a
 * 401 once with a new token (a write too, if buffered: the API answers 401 before reading the
 * body), and a 429/503 of a safe method after its Retry-After within the deadline.
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
  const cached = (id: string, ask: () => Promise<Outcome<KeyAccess>>, fresh: boolean) =>
    cache ? cache.access(caller.tenant, id, ask, fresh) : ask();
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
          : asRun(caller.env, caller.tenant, credential.registration, (f) =>
              f.access(credential.run),
            ));
    if (!access.ok) throw problemOf(access.error);
    return access.value;
  };
  let renewedAfter401 = false;
  for (;;) {
    const remaining = call.deadline - Date.now();
    if (remaining <= 0)
      throw new Problem("upstream-timeout", "The call's deadline passed before it could be sent.");
    // Authenticated before a permit is taken: forged keys cannot spend the shared budget.
    let access = await tokenFor();
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
    if (access.expiresAt - Date.now() < TOKEN_MIN_LEFT_AT_SEND_MS) {
      access = await tokenFor(true);
    }
    trace.waitedMs += permit.waitedMs;
    trace.attempts++;
    const headers = new Headers(call.headers);
    headers.set("authorization", `Bearer ${access.token}`);
    headers.set("ocp-apim-subscription-key", caller.config.subscriptionKey);
    // Locally only: the sandbox logs it beside a 429, to tell transit from pace (docs/sandbox.md).
    if (caller.env.SANDBOX) headers.set("x-ledgergate-sent-at", String(Date.now()));
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
      // The token is no good: drop this isolate's copies first, so the retry asks the object.
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
      // The watcher backs off first: the 429 is its answer, and it polls again next cycle.
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
