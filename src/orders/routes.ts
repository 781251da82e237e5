/**
 * @module
 * `/orders/*` (declared in `orders/contract.ts`): the tenant's order runs and a retry. The tenant
 * comes from the gateway key; another tenant's order is a 404.
 */
import { unwrap } from "../kernel/outcome";
import { getOrder, listOrders, retryOrder } from "./contract";
import { asCaller, keyedRouter } from "../tenant/door/gateway-key";

export const orderRoutes = keyedRouter()
  .openapi(listOrders, async (c) => {
    const { state, limit } = c.req.valid("query");
    return c.json(
      { orders: unwrap(await asCaller(c, (f) => f.orderRuns(state ?? null, limit))) },
      200,
    );
  })
  .openapi(getOrder, async (c) => {
    const { source, orderId } = c.req.valid("param");
    return c.json(unwrap(await asCaller(c, (f) => f.orderRun(source, orderId))), 200);
  })
  .openapi(retryOrder, async (c) => {
    const { source, orderId } = c.req.valid("param");
    return c.json(unwrap(await asCaller(c, (f) => f.retryOrder(source, orderId))), 202);
  });
