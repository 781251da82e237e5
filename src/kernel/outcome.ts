/**
 * @module
 * What a Durable Object answers across RPC: a value, or a failure with a tagged reason. The reasons
 * are a closed set, and `problemOf` is the one exhaustive mapping from a reason to the `Problem` a
 * caller sees, so no route invents its own status for a failure and no string sentinel mixes with
 * `null`. Details are written for the caller: they never hold a secret.
 */
import { Problem } from "./problem";
import type { Result } from "./result";

/** Why an object said no. */
export type Reason =
  /** The gateway key does not authenticate (or names no tenant): refused without saying which. */
  | "unauthorized"
  /**
   * A webhook's signature cannot be verified (unknown tenant, no secret, or a bad signature: never
   * told apart).
   */
  | "bad-signature"
  /** The request is well signed but its content cannot be used. */
  | "bad-request"
  /** No such tenant (operator routes) or no such record (a gateway key's own tenant). */
  | "not-found"
  | "conflict"
  /** The token endpoint refused the client key: only a new client key mends it. */
  | "rejected"
  /** The client key was refused while being registered or replaced: nothing was stored. */
  | "unprocessable"
  /** A bound on what the caller may keep waiting is reached: try again after `retryAfterSeconds`. */
  | "too-many"
  /** A transient failure: try again after `retryAfterSeconds`. */
  | "unavailable"
  /** The gateway's own configuration (SECRETS_KEY, an environment's keys) is missing or wrong. */
  | "misconfigured";

/**
 * A failure: its reason, what the caller can do about it, when to try again, and the request's
 * field it is about (answered as the problem's `errors`, like a validation failure).
 */
export interface Failure {
  reason: Reason;
  detail: string;
  retryAfterSeconds?: number;
  field?: string;
}

/** A Durable Object's answer. */
export type Outcome<T> = Result<T, Failure>;

/** A successful outcome. */
export const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });

/** A failed outcome. */
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

/** A failed outcome about one field of the request: its problem names the field. */
export function failOn(
  field: string,
  reason: "bad-request" | "conflict" | "unprocessable",
  detail: string,
): { ok: false; error: Failure } {
  return { ok: false, error: { reason, detail, field } };
}

/**
 * The problem a caller sees for `f`. Exhaustive: a new reason does not compile until it is mapped
 * here.
 */
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

/** The value of `o`, or its failure thrown as a `Problem`. */
export function unwrap<T>(o: Outcome<T>): T {
  if (o.ok) return o.value;
  throw problemOf(o.error);
}
