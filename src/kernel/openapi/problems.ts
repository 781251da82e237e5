/**
 * @module The gateway's problems as OpenAPI responses, each description listing its status's types
 * from `PROBLEM_TYPES`, so a type added there shows up here too.
 */
// For its effect: zod gains `.openapi` before the clone below is made.
import "@hono/zod-openapi";
import { PROBLEM_TYPES, ProblemBody as Problem } from "../problem";

export const PROBLEM_MEDIA_TYPE = "application/problem+json";

/** A clone: zod copies `.openapi` onto a schema only if made after @hono/zod-openapi loaded. */
export const ProblemBody = Problem.clone().openapi("Problem");

export type ProblemStatus = (typeof PROBLEM_TYPES)[keyof typeof PROBLEM_TYPES]["status"];

export function problemResponse(status: ProblemStatus) {
  const types = Object.entries(PROBLEM_TYPES).filter(([, t]) => t.status === status);
  const description =
    types.map(([name, t]) => `\`${name}\`: ${t.title}`).join("; ") || "A problem.";
  return { description, content: { [PROBLEM_MEDIA_TYPE]: { schema: ProblemBody } } };
}

/**
 * The problem responses of a route: the given statuses, and 500, which any route can answer.
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
