/**
 * @module
 * The console's request log page: the admin route's query, read through the operator's face, shown
 * with each failed call's support bundle. The session is the authority, as the admin token is on
 * `/admin`.
 */
import { requestLogPage } from "../../lib/request-log/page";
import { tenantName } from "../../lib/stubs";
import { RequestsPage } from "./pages/requests";
import { html } from "./render";
import { requestsPage } from "./requests-contract";
import type { ConsoleRouter } from "./router";

/** Binds the request log page to `router`. */
export function requestRoutes(router: ConsoleRouter) {
  return router.openapi(requestsPage, async (c) => {
    const { environment, client } = c.req.valid("param");
    const q = c.req.valid("query");
    const page = await requestLogPage(c.env, environment, client, q);
    return html(
      c,
      <RequestsPage
        csrf={c.var.console.csrf}
        tenant={tenantName(environment, client)}
        environment={environment}
        client={client}
        status={q.status ?? null}
        {...page}
      />,
    );
  });
}
