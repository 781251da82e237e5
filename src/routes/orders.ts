/**
 * @module
 * `/orders/*` (gateway key of the tenant): where each shop order's run stands, the failed ones, and
 * a retry. The tenant comes from the authenticated key; another tenant's order is a 404.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { GatewayApp } from "../lib/app";
import { Source } from "../lib/orders/order";
import { RunState } from "../lib/orders/runs";
import { unwrap } from "../lib/outcome";
import { tenantStub } from "../lib/stubs";
import { gatewayKey } from "../middleware/gateway-key";
import { validParams, validQuery } from "../middleware/validate";

const ListQuery = z.strictObject({ state: RunState.optional(), limit: z.coerce.number().int().min(1).max(500).default(100) });
const OrderParams = z.object({ source: Source, orderId: z.string().min(1).max(100) });

/** The object of the caller's tenant. */
const own = (c: Context<GatewayApp>) => tenantStub(c.env, c.var.caller.tenant);

export const orderRoutes = new Hono<GatewayApp>()
  .use("*", gatewayKey())
  .get("/", validQuery(ListQuery), async (c) => {
    const { state, limit } = c.req.valid("query");
    return c.json({ orders: unwrap(await own(c).orderRuns(c.var.caller.key, state ?? null, limit)) });
  })
  .get("/:source/:orderId", validParams(OrderParams), async (c) => {
    const { source, orderId } = c.req.valid("param");
    return c.json(unwrap(await own(c).orderRun(c.var.caller.key, source, orderId)));
  })
  .post("/:source/:orderId/retry", validParams(OrderParams), async (c) => {
    const { source, orderId } = c.req.valid("param");
    return c.json(unwrap(await own(c).retryOrder(c.var.caller.key, source, orderId)), 202);
  });
