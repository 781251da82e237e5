/**
 * @module
 * What every route declaration shares: the router that validates with the declared schemas and
 * answers the gateway's problems, and the shapes of JSON bodies.
 */
import { OpenAPIHono, type z } from "@hono/zod-openapi";
import type { GatewayApp } from "../app";
import { Problem } from "../problem";
import { fieldErrors } from "../validate";
import { validationProblem } from "../middleware/validate";

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
