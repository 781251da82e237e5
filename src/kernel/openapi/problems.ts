/**
 * @module
 * The gateway's problem answers as OpenAPI responses. One body schema (RFC 9457 plus `requestId`
 * and `errors`), and one helper that builds the `application/problem+json` responses for the
 * statuses a route can answer. Each response's description lists the problem types of that status,
 * read from `PROBLEM_TYPES` when the document is built, so a type added there shows up here too.
 */
// For its effect: zod gains `.openapi` before the clone below is made.
import "@hono/zod-openapi";
import { PROBLEM_TYPES, ProblemBody as Problem } from "../problem";

/** The media type of every problem the gateway answers. */
export const PROBLEM_MEDIA_TYPE = "application/problem+json";

/**
 * The body of every problem ledgergate answers, named for the document. A clone: a lib schema (see
 * the note at `setOrderMapping` in `tenant/admin-contract.ts`).
 */
export const ProblemBody = Problem.clone().openapi("Problem");

/** A status some problem type has. */
export type ProblemStatus = (typeof PROBLEM_TYPES)[keyof typeof PROBLEM_TYPES]["status"];

/** The OpenAPI response of one problem status. */
export function problemResponse(status: ProblemStatus) {
  const types = Object.entries(PROBLEM_TYPES).filter(([, t]) => t.status === status);
  const description =
    types.map(([name, t]) => `\`${name}\`: ${t.title}`).join("; ") || "A problem.";
  return { description, content: { [PROBLEM_MEDIA_TYPE]: { schema: ProblemBody } } };
}

/**
 * The problem responses of a route: the given statuses, and 500, which any route can answer.
 *
 * @example createRoute({ …, responses: { 200: ok, ...problems(400, 401) } })
 */
export function problems<S extends ProblemStatus>(
  ...statuses: S[]
): Record<S | 500, ReturnType<typeof problemResponse>> {
  const all = [...new Set<S | 500>([...statuses, 500])];
  return Object.fromEntries(all.map((s) => [s, problemResponse(s)])) as Record<
    S | 500,
    ReturnType<typeof problemResponse>
  >;
}
