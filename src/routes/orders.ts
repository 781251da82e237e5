/**
 * @module
 * `/orders/*` (gateway key of the tenant): where each shop order's run stands, the failed ones,
 * and a retry. The tenant comes from the authenticated key; another tenant's order is a 404.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { GatewayApp } from "../lib/app";
import { bearer } from "../lib/auth";
import { Source } from "../lib/orders/order";
import { orderPort } from "../lib/orders/port";
import { Problem } from "../lib/problem";
import { claimedTenant } from "../lib/tenant";
import { tenantStub } from "../lib/tenants";
import { param } from "../lib/validate";

const ListQuery = z.strictObject({
  state: z.enum(["received", "running", "invoiced", "settled", "credited", "cancelled", "failed"]).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
const OrderId = z.string().min(1).max(100);

/** The tenant object of the caller's gateway key (authenticated by the object on each call). */
function caller(c: Context<GatewayApp>) {
  const key = bearer(c.req.header("authorization"));
  const tenant = key ? claimedTenant(key) : null;
  if (!key || !tenant) throw new Problem("unauthorized", "Send a gateway key as Authorization: Bearer <gateway key>.", { headers: { "www-authenticate": "Bearer" } });
  return { key, stub: orderPort(tenantStub(c.env, tenant.environment, tenant.client)) };
}

function authorized<T>(value: T | "unauthorized"): T {
  if (value === "unauthorized") throw new Problem("unauthorized", "The gateway key is not valid.", { headers: { "www-authenticate": "Bearer" } });
  return value;
}

function found<T>(value: T | null, source: string, orderId: string): T {
  if (value === null) throw new Problem("not-found", `No ${source} order ${orderId} has reached this tenant.`);
  return value;
}

export const orderRoutes = new Hono<GatewayApp>()
  .get("/", async (c) => {
    const parsed = ListQuery.safeParse(c.req.query());
    if (!parsed.success) throw new Problem("bad-request", `Query: ${parsed.error.issues.map((i) => `${i.path.join(".") || "query"} ${i.message}`).join("; ")}.`);
    const { key, stub } = caller(c);
    return c.json({ orders: authorized(await stub.orderRuns(key, parsed.data.state ?? null, parsed.data.limit)) });
  })
  .get("/:source/:orderId", async (c) => {
    const { key, stub } = caller(c);
    const source = param(Source, c.req.param("source"), "source");
    const orderId = param(OrderId, c.req.param("orderId"), "order");
    return c.json(found(authorized(await stub.orderRun(key, source, orderId)), source, orderId));
  })
  .post("/:source/:orderId/retry", async (c) => {
    const { key, stub } = caller(c);
    const source = param(Source, c.req.param("source"), "source");
    const orderId = param(OrderId, c.req.param("orderId"), "order");
    const run = found(authorized(await stub.retryOrder(key, source, orderId)), source, orderId);
    if (run === "nothing-failed") throw new Problem("conflict", "Neither the order nor any of its refunds failed: there is nothing to retry.");
    return c.json(run, 202);
  });
