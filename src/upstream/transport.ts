/**
 * @module How bytes reach the API: HTTPS `fetch`, or locally the SANDBOX binding. Redirects are
 * never followed: that would resend the request's keys to wherever `Location` points.
 */
import type { Bindings } from "../kernel/config";

/** The longest one upstream exchange may take, ms (the slowest list calls take seconds). */
export const UPSTREAM_TIMEOUT_MS = 30_000;

export type Exchange =
  { ok: true; response: Response } | { ok: false; failure: "timeout" | "connection" };

/** A timeout (504 to the caller) is told from other failures (502). */
export async function exchange(
  env: Bindings,
  url: string,
  init: RequestInit,
  timeoutMs = UPSTREAM_TIMEOUT_MS,
): Promise<Exchange> {
  if (!url.startsWith("https://")) throw new TypeError("upstream URLs must be https://");
  if (timeoutMs <= 0) return { ok: false, failure: "timeout" };
  // Covers the wait for the headers only: a download already streaming must not be cut off.
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

/** The longest Retry-After obeyed, s: repeated 429s pause every tenant for it. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/** Seconds from a `Retry-After` (delta-seconds or HTTP-date), capped, or `fallback`. */
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
