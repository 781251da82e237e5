/**
 * @module
 * Validation of the gateway's own routes. The schemas are the routes' OpenAPI declarations
 * (each capability's `contract.ts`); `@hono/zod-openapi` runs them, and `validationProblem` (the routers'
 * `defaultHook`) turns a failure into the gateway's problem: a body lists each field (`errors`), a
 * bad path parameter is a 404 (no such resource can exist), a bad query is a 400 naming the
 * parameter. `jsonGate` runs before the body's schema: size cap, content type and JSON syntax, each
 * its own problem, and an empty body standing for a default where the route allows one.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { GatewayApp } from "../app";
import { Problem } from "../problem";
import { fieldErrors, readJson } from "../validate";

/**
 * What `@hono/zod-openapi` hands its hook after each validation (its `Hook` type's first argument).
 */
export type ValidationResult = { target: string } & (
  { success: true; data: unknown } | { success: false; error: z.ZodError }
);

/**
 * The `defaultHook` of every gateway router: lets valid input through, throws the problem of
 * invalid input.
 *
 * @example new OpenAPIHono<GatewayApp>({ defaultHook: validationProblem })
 */
export function validationProblem(result: ValidationResult, _c: Context): void {
  if (result.success) return;
  const issues = result.error.issues;
  if (result.target === "param") throw new Problem("not-found", issues.map(noSuch).join(" "));
  if (result.target === "query")
    throw new Problem(
      "bad-request",
      `Query: ${issues.map((i) => `${i.path.join(".") || "query"} ${i.message}`).join("; ")}.`,
    );
  throw new Problem("validation-failed", "The body failed validation; see errors.", {
    errors: fieldErrors(result.error),
  });
}

/**
 * "No such source; the sources are shopify, …": a path parameter outside its set names the set,
 * which the documentation publishes anyway, so the caller can correct a typo without looking it up.
 */
function noSuch(issue: z.core.$ZodIssue): string {
  const name = issue.path.join(".");
  const values = issue.code === "invalid_value" ? issue.values.map(String) : [];
  return values.length > 0
    ? `No such ${name}; the ${name}s are ${values.join(", ")}.`
    : `No such ${name}.`;
}

/**
 * Reads a JSON body before the route's schema sees it: refuses one too large (413), not JSON (415)
 * or not parseable (400). With `optional`, an empty body stands for `{}` (the schema's defaults).
 *
 * The body is read from a clone, and the parsed value left in Hono's body cache, where the schema's
 * validator reads it (`c.req.json()`): the validator never meets bytes the gate has not checked.
 * With no content type the body is empty (anything else is a 415 here), and the validator then
 * takes `{}` by itself.
 *
 * @example createRoute({ …, middleware: [jsonGate({ optional: true })], request: { body:
 * jsonBody(Rotation) } })
 */
export function jsonGate(opts: { optional?: boolean } = {}): MiddlewareHandler<GatewayApp> {
  return async function jsonGate(c, next) {
    const value = (await readJson(c.req.raw.clone(), opts.optional)) ?? {};
    if (c.req.header("content-type") !== undefined) c.req.bodyCache.json = Promise.resolve(value);
    await next();
  };
}
