/**
 * @module
 * zod validation as middleware, so handlers read `c.req.valid(…)` already typed. Failures are the
 * gateway's own problems: a body lists each field (`errors`), a bad path parameter is a 404 (no such
 * resource can exist), a bad query is a 400 naming the parameter.
 */
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { GatewayApp } from "../lib/app";
import { Problem } from "../lib/problem";
import { jsonBody } from "../lib/validate";

type Validated<Target extends string, T extends z.ZodType> = MiddlewareHandler<GatewayApp, string, { in: { [K in Target]: z.input<T> }; out: { [K in Target]: z.output<T> } }>;

/**
 * A JSON body parsed with `schema`; an empty body stands for `empty` when given.
 *
 * @example app.post("/tenants", validJson(NewTenant), (c) => c.json(c.req.valid("json")))
 */
export function validJson<T extends z.ZodType<object>>(schema: T, empty?: z.input<T>): Validated<"json", T> {
  return async function validJson(c, next) {
    c.req.addValidatedData("json", await jsonBody(c.req.raw, schema, empty));
    await next();
  };
}

/** Path parameters parsed with `schema`; a parameter that does not parse names no resource, so 404. */
export function validParams<T extends z.ZodType<object>>(schema: T): Validated<"param", T> {
  return async function validParams(c, next) {
    const parsed = schema.safeParse(c.req.param());
    if (!parsed.success) throw new Problem("not-found", `No such ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}.`);
    c.req.addValidatedData("param", parsed.data);
    await next();
  };
}

/** Query parameters parsed with `schema`. */
export function validQuery<T extends z.ZodType<object>>(schema: T): Validated<"query", T> {
  return async function validQuery(c, next) {
    const parsed = schema.safeParse(c.req.query());
    if (!parsed.success) throw new Problem("bad-request", `Query: ${parsed.error.issues.map((i) => `${i.path.join(".") || "query"} ${i.message}`).join("; ")}.`);
    c.req.addValidatedData("query", parsed.data);
    await next();
  };
}
