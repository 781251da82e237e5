/**
 * @module
 * The console's request log page, with an assistant's last tool calls; the session is the
 * authority, as the admin token is on `/admin`.
 */
import { unwrap } from "../kernel/outcome";
import { requestLogPage } from "./page";
import { RequestsPage } from "./console-page";
import { TOOL_CALLS_SHOWN } from "../assistants/console/tool-calls";
import { html } from "../console/render";
import { requestsPage } from "./console-contract";
import { asOperatorOf, tenantOwner } from "../console/tenant-kit";
import type { ConsoleRouter } from "../console/router";

/** Binds the request log page to `router`. */
export function requestRoutes(router: ConsoleRouter) {
  return router.openapi(requestsPage, async (c) => {
    const p = c.req.valid("param");
    const q = c.req.valid("query");
    const [page, toolCalls] = await Promise.all([
      requestLogPage(c.env, p.environment, p.client, q),
      asOperatorOf(c, p, (f) => f.toolCalls(TOOL_CALLS_SHOWN, null)).then(unwrap),
    ]);
    return html(
      c,
      <RequestsPage
        {...tenantOwner(c, p)}
        status={q.status ?? null}
        caller={q.caller ?? null}
        toolCalls={toolCalls}
        {...page}
      />,
    );
  });
}
