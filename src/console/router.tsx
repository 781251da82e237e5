/**
 * @module The console's router: its error boundary answers problems as readable HTML pages with
 * the same status; anything else is logged and a bare 500 page, never the error's text.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ConsoleApp } from "./app";
import { log } from "../kernel/log";
import { knownProblem, Problem, PROBLEM_TYPES } from "../kernel/problem";
import { validationProblem } from "../kernel/middleware/validate";
import { MessagePage } from "./layout";
import { html } from "./render";

export type ConsoleRouter = OpenAPIHono<ConsoleApp>;

/** The page of a problem: its title, its detail (written for the caller, never a secret). */
function problemPage(c: Context<ConsoleApp>, p: Problem): Promise<Response> {
  const { status, title } = PROBLEM_TYPES[p.type];
  const detail = p.extra.errors?.length
    ? `${p.detail} ${p.extra.errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`
    : p.detail;
  const csrf = c.get("console")?.csrf;
  return html(
    c,
    <MessagePage
      title={title}
      message={detail}
      csrf={csrf}
      link={{
        href: csrf ? "/console" : "/console/sign-in",
        text: csrf ? "Back to the tenants" : "Sign in",
      }}
    />,
    status as ContentfulStatusCode,
  );
}

export function consoleRouter(): ConsoleRouter {
  const router = new OpenAPIHono<ConsoleApp>({ defaultHook: validationProblem });
  router.onError(async (err, c) => {
    const problem = knownProblem(err);
    if (problem) return problemPage(c, problem);
    log.error("unhandled", {
      requestId: c.get("requestId"),
      route: c.req.routePath,
      error: err.name,
    });
    return problemPage(
      c,
      new Problem(
        "internal",
        `The console failed to handle the request. Quote request id ${c.get("requestId")} when you report it.`,
      ),
    );
  });
  return router;
}
