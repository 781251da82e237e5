/**
 * @module
 * How bytes reach the API: over HTTPS with `fetch`, or, in local development, through the SANDBOX
 * service binding (the one exception to HTTPS-only, since it never leaves the process). Failures
 * are told apart, because the caller's answer differs: a timeout is 504, anything else 502.
 *
 * Redirects are never followed (`redirect: "manual"`): following one resends the request, with its
 * `Authorization` and `Ocp-Apim-Subscription-Key`, to wherever the `Location` points. A 3xx goes
 * back to the caller as the API sent it, its `Location` pointed at the gateway or dropped.
 */
import type { Bindings } from "../kernel/config";

/**
 * The longest one upstream exchange may take, ms (the API's slowest list calls take seconds, not
 * tens of).
 */
export const UPSTREAM_TIMEOUT_MS = 30_000;

/** A response, or why none came. */
export type Exchange =
  { ok: true; response: Response } | { ok: false; failure: "timeout" | "connection" };

/** Sends one request upstream with a timeout of at most `timeoutMs`. */
export async function exchange(
  env: Bindings,
  url: string,
  init: RequestInit,
  timeoutMs = UPSTREAM_TIMEOUT_MS,
): Promise<Exchange> {
  if (!url.startsWith("https://")) throw new TypeError("upstream URLs must be https://");
  if (timeoutMs <= 0) return { ok: false, failure: "timeout" };
  // The timeout covers the wait for the answer's headers only: a large download that is already
  // streaming to the caller must not be cut off mid-body.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), Math.min(timeoutMs, UPSTREAM_TIMEOUT_MS));
  try {
    const sent: RequestInit = { ...init, redirect: "manual", signal: abort.signal };
    const response = await (env.SANDBOX ? env.SANDBOX.fetch(url, sent) : fetch(url, sent));
    return { ok: true, response };
  } catch {
    return { ok: false, failure: abort.signal.aborted ? "timeout" : "connection" };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The longest Retry-After the gateway obeys, s. Repeated 429s pause the whole environment (every
 * tenant) for their Retry-After, so one answer saying "an hour" (a proxy's default, a quota policy,
 * a bug) would stall everyone for an hour; the API's own throttle asks for seconds. Past this cap a
 * call is tried again, and a throttle that really lasts costs one 429 a minute.
 */
export const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * Seconds from a `Retry-After` header (delta-seconds or HTTP-date), at most
 * `MAX_RETRY_AFTER_SECONDS`, or `fallback`.
 */
export function retryAfterSeconds(header: string | null, fallback = 1): number {
  if (!header) return fallback;
  const n = Number(header);
  const at = Date.parse(header);
  const seconds =
    Number.isFinite(n) && n >= 0
      ? Math.ceil(n)
      : Number.isNaN(at)
        ? fallback
        : Math.max(0, Math.ceil((at - Date.now()) / 1000));
  return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
}
