/**
 * @module
 * The declaration of the console's request log page (`/console/tenants/{environment}/{client}/
 * requests`), with the admin route's filters. Kept apart from `contract.ts` so the request log is
 * one unit: a page behind the session, like the console's other reads.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { problemResponse } from "../kernel/openapi/problems";
import { SECURITY } from "../kernel/openapi/security";
import { Target } from "../tenant/admin-contract";
import { RequestsQuery } from "../tenant/admin-activity-contract";
import { requireSession } from "../console/guard";

const page = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string() } },
});

export const requestsPage = createRoute({
  tags: ["console"],
  security: [{ [SECURITY.operatorSession]: [] }],
  method: "get",
  middleware: [requireSession({ form: false })],
  path: "/tenants/{environment}/{client}/requests",
  operationId: "consoleRequests",
  summary: "A tenant's last API calls, with a support bundle for each failed one",
  request: { params: Target, query: RequestsQuery },
  responses: {
    200: page("The calls, newest first."),
    303: {
      description: "Not signed in: to /console/sign-in.",
      headers: z.object({ location: z.string() }),
    },
    400: page("A filter that is not a status, a class or a cursor."),
    404: page("No such tenant."),
    429: problemResponse(429),
    503: page("The console is disabled (no usable ADMIN_TOKEN)."),
  },
});
