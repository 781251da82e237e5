/**
 * @module
 * The console's order runs, one run, its Retry, and the shared budget, through the operator face
 * (`asOperatorOf`): the session is the authority here, as the gateway key is on `/orders`.
 */
import { budgets } from "../console/data";
import { orderPath } from "../console/views";
import { unwrap } from "../kernel/outcome";
import * as route from "../console/contract";
import { BudgetPage } from "../console/pages/budget";
import { OrderPage, OrdersPage } from "./console-page";
import { html, see } from "../console/render";
import { asOperatorOf, started, tenantOwner } from "../console/tenant-kit";
import type { ConsoleRouter } from "../console/router";

/** Most runs one page lists: a screenful to scan; the state filter narrows it. */
const RUNS_PER_PAGE = 200;

/** Binds the order and budget routes to `router`. */
export function orderRoutes(router: ConsoleRouter) {
  return router
    .openapi(route.ordersPage, async (c) => {
      const p = c.req.valid("param");
      const state = c.req.valid("query").state ?? null;
      const runs = unwrap(await asOperatorOf(c, p, (f) => f.orderRuns(state, RUNS_PER_PAGE)));
      return html(c, <OrdersPage {...tenantOwner(c, p)} runs={runs} state={state} />);
    })
    .openapi(route.orderPage, async (c) => {
      const { source, orderId, ...p } = c.req.valid("param");
      const run = unwrap(await asOperatorOf(c, p, (f) => f.orderRun(source, orderId)));
      return html(c, <OrderPage {...tenantOwner(c, p)} run={run} />);
    })
    .openapi(route.retryOrder, async (c) => {
      const { source, orderId, ...p } = c.req.valid("param");
      started(await asOperatorOf(c, p, (f) => f.retryOrder(source, orderId)));
      return see(c, orderPath(p.environment, p.client, source, orderId));
    })
    .openapi(route.budgetPage, async (c) =>
      html(c, <BudgetPage csrf={c.var.console.csrf} environments={await budgets(c.env)} />),
    );
}
