/**
 * @module
 * The declarations of `/orders/*` (gateway key): where each shop order's run stands, the failed
 * ones, and a retry. `orders/routes.ts` binds a handler to each.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { Source } from "./order";
import { OrderRunView } from "./run-view";
import { RunState } from "./runs";
import { SECURITY } from "../kernel/openapi/security";
import { guarded, jsonAnswer, tagged } from "../kernel/routes/contract-kit";

const ListQuery = z.strictObject({
  state: RunState.optional().openapi({ description: "Only runs in this state (e.g. `failed`)." }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .openapi({ description: "At most this many runs, newest first." }),
});
const OrderParams = z.object({ source: Source, orderId: z.string().min(1).max(100) });

/**
 * A run as the tenant's gateway key sees it (`orders/run-view.ts`). A clone: a schema made before
 * @hono/zod-openapi extended zod has no `.openapi`.
 */
export const OrderRun = OrderRunView.clone().openapi("OrderRun", {
  description: "An order's run: no payloads, no buyer, amounts as decimals.",
});

const orders = tagged("orders", SECURITY.gatewayKey);

export const listOrders = createRoute({
  ...orders.get,
  path: "/",
  operationId: "listOrders",
  summary: "The tenant's order runs, newest first",
  request: { query: ListQuery },
  responses: {
    200: jsonAnswer("The runs.", z.strictObject({ orders: z.array(OrderRun) })),
    ...guarded(400),
  },
});

export const getOrder = createRoute({
  ...orders.get,
  path: "/{source}/{orderId}",
  operationId: "getOrder",
  summary: "One order's run, with each step",
  request: { params: OrderParams },
  responses: { 200: jsonAnswer("The run.", OrderRun), ...guarded(404) },
});

export const retryOrder = createRoute({
  ...orders.post,
  path: "/{source}/{orderId}/retry",
  operationId: "retryOrder",
  summary: "Start a failed run again from its first unfinished step",
  request: { params: OrderParams },
  responses: { 202: jsonAnswer("The run, started again.", OrderRun), ...guarded(404, 409) },
});
