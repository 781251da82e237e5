/**
 * @module
 * ledgergate's one error vocabulary (RFC 9457 `application/problem+json`). A closed set of problem
 * types, one status per type, one body shape with the request id. Anything that is not a `Problem`
 * becomes a bare 500 whose text never reaches the caller.
 */
import type { Context } from "hono";
import type { GatewayApp } from "./app";
import { log } from "./log";

/** Every problem type ledgergate answers, with its status and title. */
export const PROBLEM_TYPES = {
  "bad-request": { status: 400, title: "Bad request" },
  "validation-failed": { status: 400, title: "The request failed validation" },
  "unauthorized": { status: 401, title: "Missing or invalid credentials" },
  "not-found": { status: 404, title: "Not found" },
  "method-not-allowed": { status: 405, title: "Method not allowed" },
  "conflict": { status: 409, title: "Conflict" },
  "payload-too-large": { status: 413, title: "Payload too large" },
  "unsupported-media-type": { status: 415, title: "Unsupported media type" },
  "unprocessable": { status: 422, title: "Unprocessable request" },
  "internal": { status: 500, title: "Internal error" },
  "upstream-failed": { status: 502, title: "The accounting API failed" },
  "credentials-rejected": { status: 502, title: "The accounting API refused the tenant's client key" },
  "unavailable": { status: 503, title: "Service unavailable" },
  "upstream-timeout": { status: 504, title: "The accounting API did not answer in time" },
} as const;
export type ProblemType = keyof typeof PROBLEM_TYPES;

/** Base URI of the problem types; each type is documented in the README under this name. */
export const PROBLEM_BASE = "https://ledgergate.dev/problems/";

/** One validation error: where, and what is wrong. */
export interface FieldError {
  path: string;
  message: string;
}

/** An error ledgergate answers itself. Throw it from a route, or return `problem.response(...)`. */
export class Problem extends Error {
  constructor(
    readonly type: ProblemType,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = "Problem";
  }

  /** The `application/problem+json` response, stamped with the request id. */
  toResponse(requestId: string): Response {
    const { status, title } = PROBLEM_TYPES[this.type];
    const body = { type: PROBLEM_BASE + this.type, title, status, detail: this.detail, requestId, errors: this.extra.errors };
    return new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/problem+json", "x-request-id": requestId, ...this.extra.headers },
    });
  }
}

/** Hono `onError`: a `Problem` answers itself; anything else is logged and becomes a bare 500. */
export function handleError(err: Error, c: Context<GatewayApp>): Response {
  const id = c.get("requestId");
  if (err instanceof Problem) return err.toResponse(id);
  log.error("unhandled", { requestId: id, route: c.req.routePath, error: err.name });
  return new Problem("internal", "The gateway failed to handle the request. Quote the request id when you report it.").toResponse(id);
}

/** Hono `notFound`. */
export function handleNotFound(c: Context<GatewayApp>): Response {
  return new Problem("not-found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`).toResponse(c.get("requestId"));
}
