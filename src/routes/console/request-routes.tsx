/**
 * @module
 * The console's request log page: the admin route's query, read through the operator's face, shown
 * with each failed call's support bundle, and an assistant's last tool calls. The session is the authority, as the admin token is on
 * `/admin`.
 */
import { unwrap } from "../../lib/outcome";
import { pageSize, requestPage, statusFilter } from "../../lib/request-log/view";
import { asOperator, tenantName } from "../../lib/stubs";
import { RequestsPage } from "./pages/requests";
import { TOOL_CALLS_SHOWN } from "./pages/tool-calls";
import { html } from "./render";
import { requestsPage } from "./requests-contract";
import type { ConsoleRouter } from "./router";

/** Binds the request log page to `router`. */
export function requestRoutes(router: ConsoleRouter) {
  return router.openapi(requestsPage, async (c) => {
    const { environment, client } = c.req.valid("param");
    const q = c.req.valid("query");
    const name = tenantName(environment, client);
    const limit = pageSize(q.limit);
    const [rows, toolCalls] = await Promise.all([
      asOperator(c.env, name, (f) =>
        f.requests(statusFilter(q.status), limit, q.before === undefined ? null : Number(q.before)),
      ).then(unwrap),
      asOperator(c.env, name, (f) => f.toolCalls(TOOL_CALLS_SHOWN, null)).then(unwrap),
    ]);
    const api = c.var.config.environments[environment];
    const page = requestPage(rows, limit, {
      tenant: name,
      apiBaseUrl: api.ok ? api.config.apiBaseUrl : "",
    });
    return html(
      c,
      <RequestsPage
        csrf={c.var.console.csrf}
        tenant={name}
        environment={environment}
        client={client}
        status={q.status ?? null}
        toolCalls={toolCalls}
        {...page}
      />,
    );
  });
}
