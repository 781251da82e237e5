/**
 * @module
 * What every route declaration shares: the router that validates with the declared schemas and
 * answers the gateway's problems, and the shapes of JSON bodies.
 */
import { OpenAPIHono, type z } from "@hono/zod-openapi";
import type { GatewayApp } from "../../lib/app";
import { validationProblem } from "../../middleware/validate";

/**
 * A router whose `.openapi(route, handler)` validates with the route's own schemas and answers a
 * failure with the gateway's problem (`validationProblem`), never the library's default body.
 *
 * @example export const metaRoutes = gatewayRouter().openapi(healthz, (c) => c.json(…, 200))
 */
export function gatewayRouter(): OpenAPIHono<GatewayApp> {
  return new OpenAPIHono<GatewayApp>({ defaultHook: validationProblem });
}

/** A JSON request body of `schema`; `required: false` when an empty body stands for `{}`. */
export function jsonBody<T extends z.ZodType>(schema: T, required = true) {
  return { required, content: { "application/json": { schema } } };
}

/** A JSON answer of `schema`. */
export function jsonAnswer<T extends z.ZodType>(description: string, schema: T) {
  return { description, content: { "application/json": { schema } } };
}
