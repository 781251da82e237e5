/**
 * @module Validation of the gateway's own routes by their declared schemas: a bad body lists each
 * field, a bad path parameter is a 404 (no such resource can exist), a bad query a 400.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { GatewayApp } from "../app";
import { Problem } from "../problem";
import { fieldErrors, readJson } from "../validate";

export type ValidationResult = { target: string } & (
  { success: true; data: unknown } | { success: false; error: z.ZodError }
);

/**
 * The `defaultHook` of every gateway router: throws the problem of invalid input.
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

/** A path parameter outside its set names the set (published anyway), so a typo is easy to fix. */
function noSuch(issue: z.core.$ZodIssue): string {
  const name = issue.path.join(".");
  const values = issue.code === "invalid_value" ? issue.values.map(String) : [];
  return values.length > 0
    ? `No such ${name}; the ${name}s are ${values.join(", ")}.`
    : `No such ${name}.`;
}

/**
 * Refuses a JSON body too large, not JSON or unparsable, and leaves what it parsed in Hono's body
 * cache for the validator, which never meets unchecked bytes. `optional`: empty stands for `{}`.
 * @example createRoute({ …, middleware: [jsonGate({ optional: true })], … })
 */
export function jsonGate(opts: { optional?: boolean } = {}): MiddlewareHandler<GatewayApp> {
  return async function jsonGate(c, next) {
    const value = (await readJson(c.req.raw.clone(), opts.optional)) ?? {};
    if (c.req.header("content-type") !== undefined) c.req.bodyCache.json = Promise.resolve(value);
    await next();
  };
}
