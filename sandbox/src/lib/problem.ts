/**
 * @module
 * The API's error vocabulary, as the sandbox speaks it: ProblemDetails (lowercase RFC 7807 keys, as
 * ASP.NET writes them) for the API itself, the APIM gateway's `{statusCode, message}` for the layer
 * in front of it, and RFC 6749 errors for the token endpoint.
 */
import type { z } from "zod";

const TYPES: Record<number, string> = {
  400: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
  403: "https://tools.ietf.org/html/rfc9110#section-15.5.4",
  404: "https://tools.ietf.org/html/rfc9110#section-15.5.5",
  405: "https://tools.ietf.org/html/rfc9110#section-15.5.6",
  409: "https://tools.ietf.org/html/rfc9110#section-15.5.10",
  413: "https://tools.ietf.org/html/rfc9110#section-15.5.14",
  415: "https://tools.ietf.org/html/rfc9110#section-15.5.16",
};

/** A ProblemDetails that a data method returns instead of throwing across RPC. */
export interface Problem {
  status: number;
  title: string;
  detail?: string;
  errors?: Record<string, string[]>;
}

/** Result of a data operation: a value, or the problem the API would answer. */
export type Result<T> = { ok: true; value: T } | { ok: false; problem: Problem };

/** Shorthands for the problems the API's resources answer. */
export const problems = {
  notFound: (entity: string, id: string | number): Problem => ({
    status: 404,
    title: "Object(s) not found",
    detail: `${entity} with id = ${id} not found.`,
  }),
  validation: (entity: string, detail: string): Problem => ({
    status: 400,
    title: `${entity} validation error(s)`,
    detail,
  }),
  conflict: (entity: string, detail: string): Problem => ({
    status: 409,
    title: `${entity} conflict`,
    detail,
  }),
  cast: (detail: string): Problem => ({ status: 400, title: "Unable to cast object(s)", detail }),
  resourceParameter: (detail: string): Problem => ({
    status: 400,
    title: "Invalid resourceParameter",
    detail,
  }),
};

/** The ProblemDetails response for `p`. */
export function problemResponse(p: Problem): Response {
  const body = {
    type: TYPES[p.status] ?? "about:blank",
    title: p.title,
    status: p.status,
    detail: p.detail,
    errors: p.errors,
    traceId: traceId(),
  };
  return Response.json(body, {
    status: p.status,
    headers: { "content-type": "application/problem+json; charset=utf-8" },
  });
}

/**
 * ASP.NET's validation problem for a body that failed its schema; each error is keyed by the
 * field's path.
 */
export function schemaProblem(error: z.ZodError, root = ""): Problem {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const keys =
      issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of keys) {
      const key = [root, ...path.map(String)].filter(Boolean).join(".") || "$";
      const message =
        issue.code === "unrecognized_keys"
          ? `'${String(path.at(-1))}' is not a property of this object.`
          : issue.message;
      (errors[key] ??= []).push(message);
    }
  }
  return {
    status: 400,
    title: "One or more validation errors occurred.",
    detail: `Invalid field(s): ${Object.keys(errors).join(", ")}`,
    errors,
  };
}

/** The APIM gateway's own error body (`statusCode` is a number there). */
export function apimResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ statusCode: status, message }, { status, headers });
}

/** An RFC 6749 §5.2 error from the token endpoint. */
export function oauthError(error: string, description: string): Response {
  return Response.json(
    { error, error_description: description },
    { status: 400, headers: { "cache-control": "no-store" } },
  );
}

function traceId(): string {
  return `00-${crypto.randomUUID().replaceAll("-", "")}-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}-00`;
}
