/**
 * @module
 * The console's request log page: the admin route's query, read through the operator's face, shown
 * with each failed call's support bundle, and an assistant's last tool calls. The session is the
 * authority, as the admin token is on `/admin`.
 */
import { unwrap } from "../kernel/outcome";
import { requestLogPage } from "./page";
import { asOperator, tenantName } from "../kernel/stubs";
import { RequestsPage } from "./console-page";
import { TOOL_CALLS_SHOWN } from "../assistants/console/tool-calls";
import { html } from "../console/render";
import { requestsPage } from "./console-contract";
import type { ConsoleRouter } from "../console/router";

/** Binds the request log page to `router`. */
export function requestRoutes(router: ConsoleRouter) {
  return router.openapi(requestsPage, async (c) => {
    const { environment, client } = c.req.valid("param");
    const q = c.req.valid("query");
    const name = tenantName(environment, client);
    const [page, toolCalls] = await Promise.all([
      requestLogPage(c.env, environment, client, q),
      asOperator(c.env, name, (f) => f.toolCalls(TOOL_CALLS_SHOWN, null)).then(unwrap),
    ]);
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
