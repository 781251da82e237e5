/**
 * @module
 * The operator console at `/console`: server-rendered pages (Hono JSX) and plain HTML forms, no
 * script. Mounted by `src/index.ts`; its routes are declared in `contract.ts` like every other
 * route.
 */
import { eventRoutes } from "../events/console-routes";
import { MessagePage } from "./layout";
import { oauthRoutes } from "../assistants/console/oauth-routes";
import { orderRoutes } from "../orders/console-routes";
import { payoutRoutes } from "../payouts/console-routes";
import { requestRoutes } from "../request-log/console-routes";
import { searchRoutes } from "../search/routes";
import { html } from "./render";
import { consoleRouter } from "./router";
import { sessionRoutes } from "./session-routes";
import { tenantRoutes } from "./tenant-routes";

/**
 * The console's router, every page and form on it; last, a page for any other console address
 * (an operator's mistyped or stale link meets a page with a way back, not the API's JSON 404).
 * It reads no session: it shows nothing but the address's absence.
 */
export const consoleRoutes = searchRoutes(
  oauthRoutes(
    payoutRoutes(
      eventRoutes(requestRoutes(orderRoutes(tenantRoutes(sessionRoutes(consoleRouter()))))),
    ),
  ),
).all("*", (c) =>
  html(
    c,
    <MessagePage
      title="Page not found"
      message={`The console has no page at ${new URL(c.req.url).pathname}.`}
      link={{ href: "/console", text: "Go to the console" }}
    />,
    404,
  ),
);
