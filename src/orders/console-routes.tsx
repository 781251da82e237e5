/**
 * @module
 * A tenant's order runs, one run, its Retry, and the shared budget. The runs come from the tenant's
 * object's operator face (`asOperator`): the session is the authority here, as the gateway key is
 * on `/orders`.
 */
import { budgets } from "../console/data";
import { orderPath } from "../console/views";
import { unwrap } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { asOperator, tenantName } from "../kernel/stubs";
import * as route from "../console/contract";
import { BudgetPage } from "../console/pages/budget";
import { OrderPage, OrdersPage } from "./console-page";
import { html, see } from "../console/render";
import type { ConsoleRouter } from "../console/router";

/** Most runs one page lists: a screenful to scan; the state filter narrows it. */
const RUNS_PER_PAGE = 200;

/** Binds the order and budget routes to `router`. */
export function orderRoutes(router: ConsoleRouter) {
  return router
    .openapi(route.ordersPage, async (c) => {
      const { environment, client } = c.req.valid("param");
      const state = c.req.valid("query").state ?? null;
      const name = tenantName(environment, client);
      const runs = unwrap(await asOperator(c.env, name, (f) => f.orderRuns(state, RUNS_PER_PAGE)));
      return html(
        c,
        <OrdersPage
          csrf={c.var.console.csrf}
          tenant={name}
          environment={environment}
          client={client}
          runs={runs}
          state={state}
        />,
      );
    })
    .openapi(route.orderPage, async (c) => {
      const { environment, client, source, orderId } = c.req.valid("param");
      const name = tenantName(environment, client);
      const run = unwrap(await asOperator(c.env, name, (f) => f.orderRun(source, orderId)));
      return html(
        c,
        <OrderPage
          csrf={c.var.console.csrf}
          tenant={name}
          environment={environment}
          client={client}
          run={run}
        />,
      );
    })
    .openapi(route.retryOrder, async (c) => {
      const { environment, client, source, orderId } = c.req.valid("param");
      const retried = await asOperator(c.env, tenantName(environment, client), (f) =>
        f.retryOrder(source, orderId),
      );
      if (!retried.ok && retried.error.reason === "conflict")
        throw new Problem("conflict", `${retried.error.detail} Nothing was started.`);
      unwrap(retried);
      return see(c, orderPath(environment, client, source, orderId));
    })
    .openapi(route.budgetPage, async (c) =>
      html(c, <BudgetPage csrf={c.var.console.csrf} environments={await budgets(c.env)} />),
    );
}
