/**
 * @module
 * What every route declaration shares: the router that validates with the declared schemas and
 * answers the gateway's problems, the head of a declaration (tag, security, method), and the shapes
 * of bodies and answers (JSON, HTML pages and forms, redirects).
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { GatewayApp } from "../app";
import { Problem } from "../problem";
import { fieldErrors } from "../validate";
import { validationProblem } from "../middleware/validate";
import { problems, type ProblemStatus } from "../openapi/problems";

/**
 * A router whose `.openapi(route, handler)` validates with the route's own schemas and answers a
 * failure with the gateway's problem (`validationProblem`), never the library's default body.
 *
 * @example export const metaRoutes = gatewayRouter().openapi(healthz, (c) => c.json(…, 200))
 */
export function gatewayRouter(): OpenAPIHono<GatewayApp> {
  return new OpenAPIHono<GatewayApp>({ defaultHook: validationProblem });
}

/**
 * An optional body with its schema's defaults applied. @hono/zod-openapi runs the schema of an
 * optional body only when it comes with a JSON content type; a request with no body at all gets a
 * bare `{}` the schema never saw, so every default is missing (a `graceSeconds` typed `number`
 * arrives undefined). Parsing that value here gives the documented defaults; a value the validator
 * already parsed comes through unchanged.
 *
 * @param schema the route's body schema, as declared with `jsonBody(schema, false)`
 * @param value `c.req.valid("json")`
 * @returns the body, defaults filled in; throws the validation problem otherwise
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

/** A JSON answer of `schema`. */
export function jsonAnswer<T extends z.ZodType>(description: string, schema: T) {
  return { description, content: { "application/json": { schema } } };
}

/** A form's body (`application/x-www-form-urlencoded`) of `schema`, always required. */
export function formBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/x-www-form-urlencoded": { schema } } };
}

/** A text answer of `mediaType`, such as a script the Worker serves (`text/javascript`). */
export function textAnswer<M extends string>(description: string, mediaType: M) {
  const content = { [mediaType]: { schema: z.string() } } as Record<M, { schema: z.ZodString }>;
  return { description, content };
}

/** A server-rendered page (`text/html`); the status says which one. */
export function htmlPage(description: string) {
  return textAnswer(description, "text/html");
}

/** A redirect (302, 303): no body, the target in `Location`. */
export function redirect(description: string) {
  return { description, headers: z.object({ location: z.string() }) };
}

/** Who may call a route: the security requirements of its declaration (`[]`: anyone). */
type Security = Record<string, string[]>[];

/**
 * The heads of the declarations tagged `tag` and secured by `scheme`, one per method: spread first
 * (`...admin.get`), a head gives `tags`, `security` and `method`, so each declaration shows only its
 * own path, id and answers. `scheme` null: no credential.
 *
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
 * The problems of a route behind a credential (the operator's token, a gateway key), with the
 * route's own `statuses`: every such route's door adds 401 (no valid credential), 429 (over a
 * limit) and 503 (the door's side disabled or unavailable), and `problems` adds 500.
 *
 * @example responses: { 200: jsonAnswer("The run.", OrderRun), ...guarded(404) }
 */
export function guarded<S extends ProblemStatus>(...statuses: S[]) {
  return problems<S | 401 | 429 | 503>(401, 429, 503, ...statuses);
}

/**
 * `guarded` for a route with a JSON body, with what its `jsonGate` answers too: 400 (not JSON that
 * parses, or not valid), 413 (too large), 415 (not `application/json`).
 */
export function guardedJson<S extends ProblemStatus>(...statuses: S[]) {
  return guarded<S | 400 | 413 | 415>(400, 413, 415, ...statuses);
}
