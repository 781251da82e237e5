/**
 * @module
 * `/orders/*` (gateway key of the tenant): where each shop order's run stands, the failed ones, and
 * a retry. The tenant comes from the authenticated key; another tenant's order is a 404. Schemas,
 * problems and security: `orders/contract.ts`.
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
