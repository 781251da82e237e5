/**
 * @module ledgergate's one error vocabulary (RFC 9457): a closed set of problem types, one status
 * each. Anything else is a 500 whose text never reaches the caller, except a Durable Object
 * overloaded or briefly unreachable: a 503 with a Retry-After (the caller did nothing wrong).
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import type { GatewayApp } from "./app";
import { log } from "./log";

export const PROBLEM_TYPES = {
  "bad-request": { status: 400, title: "Bad request" },
  "validation-failed": { status: 400, title: "The request failed validation" },
  unauthorized: { status: 401, title: "Missing or invalid credentials" },
  "not-found": { status: 404, title: "Not found" },
  "method-not-allowed": { status: 405, title: "Method not allowed" },
  conflict: { status: 409, title: "Conflict" },
  "idempotency-key-in-use": {
    status: 409,
    title: "A request with this Idempotency-Key is still in flight",
  },
  "outcome-unknown": {
    status: 409,
    title: "The outcome of the first request with this Idempotency-Key is unknown",
  },
  "payload-too-large": { status: 413, title: "Payload too large" },
  "unsupported-media-type": { status: 415, title: "Unsupported media type" },
  unprocessable: { status: 422, title: "Unprocessable request" },
  "idempotency-key-reused": {
    status: 422,
    title: "This Idempotency-Key was used with another request",
  },
  "too-many-rows": {
    status: 422,
    title: "The list has more rows than Prefer: pages=all answers at once",
  },
  "deadline-too-short": {
    status: 422,
    title: "The call's deadline cannot fit the pages it asks for",
  },
  "too-many-requests": { status: 429, title: "Too many requests" },
  internal: { status: 500, title: "Internal error" },
  "upstream-failed": { status: 502, title: "The accounting API failed" },
  "credentials-rejected": {
    status: 502,
    title: "The accounting API refused the tenant's client key",
  },
  unavailable: { status: 503, title: "Service unavailable" },
  "upstream-timeout": { status: 504, title: "The accounting API did not answer in time" },
} as const;
export type ProblemType = keyof typeof PROBLEM_TYPES;

/** Base URI of the problem types; docs/http.md documents each under this name. */
export const PROBLEM_BASE = "https://ledgergate.dev/problems/";

const FieldError = z.strictObject({ path: z.string(), message: z.string() });
export type FieldError = z.output<typeof FieldError>;

export const ProblemBody = z.strictObject({
  type: z.string().meta({
    description: `${PROBLEM_BASE}{name}: one of the names in this response's description.`,
  }),
  title: z.string(),
  status: z.int(),
  detail: z.string().meta({ description: "What went wrong and what to do about it." }),
  requestId: z
    .string()
    .meta({ description: "Also in X-Request-Id; quote it when you report a problem." }),
  errors: z
    .array(FieldError)
    .optional()
    .meta({ description: "Validation problems: each field that failed." }),
});
export type ProblemBody = z.output<typeof ProblemBody>;

/** An error ledgergate answers itself: throw it from a route. */
export class Problem extends Error {
  constructor(
    readonly type: ProblemType,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = "Problem";
  }

  toResponse(requestId: string): Response {
    const { status, title } = PROBLEM_TYPES[this.type];
    const body: ProblemBody = {
      type: PROBLEM_BASE + this.type,
      title,
      status,
      detail: this.detail,
      requestId,
      errors: this.extra.errors,
    };
    return new Response(JSON.stringify(body), {
      status,
      headers: {
        "content-type": "application/problem+json",
        "x-request-id": requestId,
        ...this.extra.headers,
      },
    });
  }
}

/** After an overload, s: Cloudflare advises against retrying at once (it deepens the overload). */
export const OVERLOADED_RETRY_AFTER_SECONDS = 5;
/** After a retryable platform failure that outlived the runtime's own retries, s. */
const UNREACHABLE_RETRY_AFTER_SECONDS = 1;

/** The 503 of a runtime error about a Durable Object, not one its own code threw (`.remote`). */
export function platformProblem(err: unknown): Problem | null {
  if (typeof err !== "object" || err === null) return null;
  const e = err as {
    overloaded?: unknown;
    retryable?: unknown;
    remote?: unknown;
    message?: unknown;
  };
  if (
    e.overloaded === true ||
    (typeof e.message === "string" && /durable object is overloaded/i.test(e.message))
  ) {
    return new Problem(
      "unavailable",
      "Part of the gateway is overloaded right now. Try again after the Retry-After.",
      {
        headers: { "retry-after": String(OVERLOADED_RETRY_AFTER_SECONDS) },
      },
    );
  }
  if (e.retryable === true && e.remote !== true) {
    return new Problem(
      "unavailable",
      "Part of the gateway could not be reached for a moment. Try again after the Retry-After.",
      {
        headers: { "retry-after": String(UNREACHABLE_RETRY_AFTER_SECONDS) },
      },
    );
  }
  return null;
}

/** The 415 or 400 of a Hono `HTTPException` a validator threw, or null: never a 500. */
export function requestProblem(err: unknown): Problem | null {
  if (!(err instanceof HTTPException)) return null;
  if (err.status === 415)
    return new Problem(
      "unsupported-media-type",
      "The body's Content-Type is not one this route takes; /openapi.json lists each route's.",
    );
  if (err.status === 400)
    return new Problem("bad-request", "The request's body could not be read as its type says.");
  return null;
}

export const knownProblem = (err: unknown): Problem | null =>
  err instanceof Problem ? err : (platformProblem(err) ?? requestProblem(err));

/** Hono `onError`: a known problem answers itself; anything else is logged and a bare 500. */
export function handleError(err: Error, c: Context<GatewayApp>): Response {
  const id = c.get("requestId");
  if (err instanceof Problem) return err.toResponse(id);
  const refused = requestProblem(err);
  if (refused) return refused.toResponse(id);
  const platform = platformProblem(err);
  if (platform) {
    log.warn("durable-object-unavailable", {
      requestId: id,
      route: c.req.routePath,
      error: err.name,
      overloaded: (err as { overloaded?: unknown }).overloaded === true,
    });
    return platform.toResponse(id);
  }
  log.error("unhandled", { requestId: id, route: c.req.routePath, error: err.name });
  return new Problem(
    "internal",
    "The gateway failed to handle the request. Quote the request id when you report it.",
  ).toResponse(id);
}

export function handleNotFound(c: Context<GatewayApp>): Response {
  return new Problem(
    "not-found",
    `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`,
  ).toResponse(c.get("requestId"));
}
