/**
 * @module
 * `/orders/*` (gateway key of the tenant): where each shop order's run stands, the failed ones, and
 * a retry. The tenant comes from the authenticated key; another tenant's order is a 404. Schemas,
 * problems and security: `orders/contract.ts`.
 */
import type { Context } from "hono";
import type { GatewayApp } from "../kernel/app";
import { unwrap } from "../kernel/outcome";
import { asKeyHolder, type KeyHolderStub } from "../kernel/stubs";
import { gatewayKey } from "../tenant/door/gateway-key";
import { gatewayRouter } from "../kernel/routes/contract-kit";
import { getOrder, listOrders, retryOrder } from "./contract";

/** `call` on the caller's face of its tenant's object (the key is checked there). */
const own = <T>(c: Context<GatewayApp>, call: (face: KeyHolderStub) => T) =>
  asKeyHolder(c.env, c.var.caller, call);

const router = gatewayRouter();
router.use("*", gatewayKey());

export const orderRoutes = router
  .openapi(listOrders, async (c) => {
    const { state, limit } = c.req.valid("query");
    return c.json({ orders: unwrap(await own(c, (f) => f.orderRuns(state ?? null, limit))) }, 200);
  })
  .openapi(getOrder, async (c) => {
    const { source, orderId } = c.req.valid("param");
    return c.json(unwrap(await own(c, (f) => f.orderRun(source, orderId))), 200);
  })
  .openapi(retryOrder, async (c) => {
    const { source, orderId } = c.req.valid("param");
    return c.json(unwrap(await own(c, (f) => f.retryOrder(source, orderId))), 202);
  });
