/**
 * @module
 * The console's request log page, behind the session, with the admin route's filters.
 */
import { createRoute } from "@hono/zod-openapi";
import { Target } from "../tenant/admin-contract";
import { RequestsQuery } from "../tenant/admin-activity-contract";
import { htmlPage } from "../kernel/routes/contract-kit";
import { noTenant, read, signedOut } from "../console/contract-kit";

export const requestsPage = createRoute({
  ...read,
  path: "/tenants/{environment}/{client}/requests",
  operationId: "consoleRequests",
  summary: "A tenant's last API calls, with a support bundle for each failed one",
  request: { params: Target, query: RequestsQuery },
  responses: {
    200: htmlPage("The calls, newest first."),
    400: htmlPage("A filter that is not a status, a class or a cursor."),
    ...noTenant,
    ...signedOut,
  },
});
