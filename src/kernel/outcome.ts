/**
 * @module What a Durable Object answers across RPC: a value, or a failure with a reason from a
 * closed set, which `problemOf` alone maps to a status. Details are for the caller: never a secret.
 */
import { Problem } from "./problem";
import type { Result } from "./result";

export type Reason =
  /** The gateway key does not authenticate: refused without saying why. */
  | "unauthorized"
  /** Unknown tenant, no secret or a bad signature: never told apart. */
  | "bad-signature"
  | "bad-request"
  | "not-found"
  | "conflict"
  /** The token endpoint refused the client key: only a new client key mends it. */
  | "rejected"
  /** The client key was refused while being registered or replaced: nothing was stored. */
  | "unprocessable"
  | "too-many"
  | "unavailable"
  /** The gateway's own configuration (SECRETS_KEY, an environment's keys) is missing or wrong. */
  | "misconfigured";

/** A failure; `field`, when set, is answered as the problem's `errors`. */
export interface Failure {
  reason: Reason;
  detail: string;
  retryAfterSeconds?: number;
  field?: string;
}

export type Outcome<T> = Result<T, Failure>;

export const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });

export function fail(
  reason: Reason,
  detail: string,
  retryAfterSeconds?: number,
): { ok: false; error: Failure } {
  return {
    ok: false,
    error:
      retryAfterSeconds === undefined ? { reason, detail } : { reason, detail, retryAfterSeconds },
  };
}

export function failOn(
  field: string,
  reason: "bad-request" | "conflict" | "unprocessable",
  detail: string,
): { ok: false; error: Failure } {
  return { ok: false, error: { reason, detail, field } };
}

/** The problem a caller sees for `f`. Exhaustive: a new reason does not compile until mapped. */
export function problemOf(f: Failure): Problem {
  const retry = f.retryAfterSeconds ? { "retry-after": String(f.retryAfterSeconds) } : undefined;
  const errors = f.field ? { errors: [{ path: f.field, message: f.detail }] } : {};
  switch (f.reason) {
    case "unauthorized":
      return new Problem("unauthorized", f.detail, { headers: { "www-authenticate": "Bearer" } });
    case "bad-signature":
      return new Problem("unauthorized", f.detail);
    case "bad-request":
      return new Problem("bad-request", f.detail, errors);
    case "not-found":
      return new Problem("not-found", f.detail);
    case "conflict":
      return new Problem("conflict", f.detail, errors);
    case "rejected":
      return new Problem("credentials-rejected", f.detail);
    case "unprocessable":
      return new Problem("unprocessable", f.detail, errors);
    case "too-many":
      return new Problem("too-many-requests", f.detail, retry ? { headers: retry } : {});
    case "unavailable":
    case "misconfigured":
      return new Problem("unavailable", f.detail, retry ? { headers: retry } : {});
  }
}

export function unwrap<T>(o: Outcome<T>): T {
  if (o.ok) return o.value;
  throw problemOf(o.error);
}
