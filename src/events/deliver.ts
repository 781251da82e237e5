/**
 * @module
 * One attempt to deliver an event: a signed POST (Standard Webhooks), no redirect followed (a 3xx
 * fails it, never a second request elsewhere); only a 2xx delivers. See docs/design/events.md.
 */
import { retryAfterSeconds } from "../upstream/transport";
import type { AttemptOutcome } from "./object/outbox";
import { signatureHeader } from "./sign";

/** How long an attempt waits for the endpoint's answer, ms: Svix's limit. */
export const ATTEMPT_TIMEOUT_MS = 15_000;

export interface Attempt {
  url: string;
  id: string;
  body: string;
  secrets: readonly string[];
}

/** An attempt's outcome, and the receiver's Retry-After (s) when it asked to be left alone. */
export interface Attempted {
  outcome: AttemptOutcome;
  retryAfter: number | null;
}

/**
 * Sends `a` once with `fetcher` at `now` (epoch ms, for the timestamp header).
 *
 * @example await attempt(fetch, { url, id: "evt_…", body, secrets: ["whsec_…"] }, Date.now())
 */
export async function attempt(fetcher: typeof fetch, a: Attempt, now: number): Promise<Attempted> {
  const timestamp = Math.floor(now / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": "ledgergate-webhooks",
    "webhook-id": a.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signatureHeader(a.secrets, a.id, timestamp, a.body),
  };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ATTEMPT_TIMEOUT_MS);
  const started = Date.now();
  try {
    const res = await fetcher(a.url, {
      method: "POST",
      headers,
      body: a.body,
      redirect: "manual",
      signal: abort.signal,
    });
    await res.body?.cancel();
    const throttled = res.status === 429 || res.status === 503;
    return {
      outcome: {
        status: res.status,
        error: failure(res.status),
        durationMs: Date.now() - started,
      },
      retryAfter: throttled ? retryAfterSeconds(res.headers.get("retry-after"), 0) : null,
    };
  } catch {
    return {
      outcome: {
        status: null,
        error: abort.signal.aborted
          ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
          : "could not connect",
        durationMs: Date.now() - started,
      },
      retryAfter: null,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Why an answer with `status` failed, or null when it succeeded. */
function failure(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `answered ${status}: redirects are not followed`;
  return `answered ${status}`;
}
