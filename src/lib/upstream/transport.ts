/**
 * @module
 * How bytes reach the API: over HTTPS with `fetch`, or, in local development, through the SANDBOX
 * service binding (the one exception to HTTPS-only, since it never leaves the process). Failures are
 * told apart, because the caller's answer differs: a timeout is 504, anything else 502.
 */
import type { Bindings } from "../config";

/** The longest one upstream exchange may take, ms (the API's slowest list calls take seconds, not tens of). */
export const UPSTREAM_TIMEOUT_MS = 30_000;

/** A response, or why none came. */
export type Exchange = { ok: true; response: Response } | { ok: false; failure: "timeout" | "connection" };

/** Sends one request upstream with a timeout of at most `timeoutMs`. */
export async function exchange(env: Bindings, url: string, init: RequestInit, timeoutMs = UPSTREAM_TIMEOUT_MS): Promise<Exchange> {
  if (!url.startsWith("https://")) throw new TypeError("upstream URLs must be https://");
  if (timeoutMs <= 0) return { ok: false, failure: "timeout" };
  // The timeout covers the wait for the answer's headers only: a large download that is already
  // streaming to the caller must not be cut off mid-body.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), Math.min(timeoutMs, UPSTREAM_TIMEOUT_MS));
  try {
    const response = await (env.SANDBOX ? env.SANDBOX.fetch(url, { ...init, signal: abort.signal }) : fetch(url, { ...init, signal: abort.signal }));
    return { ok: true, response };
  } catch {
    return { ok: false, failure: abort.signal.aborted ? "timeout" : "connection" };
  } finally {
    clearTimeout(timer);
  }
}

/** Seconds from a `Retry-After` header (delta-seconds or HTTP-date), or `fallback`. */
export function retryAfterSeconds(header: string | null, fallback = 1): number {
  if (!header) return fallback;
  const n = Number(header);
  if (Number.isFinite(n) && n >= 0) return Math.ceil(n);
  const at = Date.parse(header);
  return Number.isNaN(at) ? fallback : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
