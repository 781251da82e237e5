/** @module What route declarations share: the router, the head, shapes of bodies and answers. */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { GatewayApp } from "../app";
import { Problem } from "../problem";
import { fieldErrors } from "../validate";
import { validationProblem } from "../middleware/validate";
import { problems, type ProblemStatus } from "../openapi/problems";

/**
 * A router that answers a validation failure with the gateway's problem, not the library's body.
 * @example export const metaRoutes = gatewayRouter().openapi(healthz, (c) => c.json(…, 200))
 */
export function gatewayRouter(): OpenAPIHono<GatewayApp> {
  return new OpenAPIHono<GatewayApp>({ defaultHook: validationProblem });
}

/**
 * An optional body with its schema's defaults, which a missing body (a bare `{}`) never got.
 * @example const { graceSeconds } = withDefaults(Rotation, c.req.valid("json"))
 */
export function withDefaults<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new Problem("validation-failed", "The body failed validation; see errors.", {
      errors: fieldErrors(parsed.error),
    });
  return parsed.data;
}

/** A JSON request body of `schema`; `required: false` when an empty body stands for `{}`. */
export function jsonBody<T extends z.ZodType>(schema: T, required = true) {
  return { required, content: { "application/json": { schema } } };
}

export function jsonAnswer<T extends z.ZodType>(description: string, schema: T) {
  return { description, content: { "application/json": { schema } } };
}

export function formBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/x-www-form-urlencoded": { schema } } };
}

export function textAnswer<M extends string>(description: string, mediaType: M) {
  const content = { [mediaType]: { schema: z.string() } } as Record<M, { schema: z.ZodString }>;
  return { description, content };
}

export function htmlPage(description: string) {
  return textAnswer(description, "text/html");
}

export function redirect(description: string) {
  return { description, headers: z.object({ location: z.string() }) };
}

type Security = Record<string, string[]>[];

/**
 * Per method, the head of a declaration tagged `tag` behind `scheme` (null: none), spread first.
 * @example const admin = tagged("admin", SECURITY.operator)
 */
export function tagged(tag: string, scheme: string | null) {
  const security: Security = scheme === null ? [] : [{ [scheme]: [] }];
  const head = <M extends "get" | "post" | "put" | "patch" | "delete">(method: M) => ({
    tags: [tag],
    security,
    method,
  });
  return {
    get: head("get"),
    post: head("post"),
    put: head("put"),
    patch: head("patch"),
    delete: head("delete"),
  };
}

/**
 * A route's problems behind a credential: its `statuses`, every door's 401, 429 and 503, and 500.
 * @example responses: { 200: jsonAnswer("The run.", OrderRun), ...guarded(404) }
 */
export function guarded<S extends ProblemStatus>(...statuses: S[]) {
  return problems<S | 401 | 429 | 503>(401, 429, 503, ...statuses);
}

/** `guarded`, plus what `jsonGate` answers: 400 (unparsable or invalid), 413, 415. */
export function guardedJson<S extends ProblemStatus>(...statuses: S[]) {
  return guarded<S | 400 | 413 | 415>(400, 413, 415, ...statuses);
}
