/**
 * @module
 * `/payouts/*` (gateway key of the tenant): where each payout's reconciliation stands, the list by
 * state, the orders settled but in no payout, and a retry. The tenant comes from the authenticated
 * key; another tenant's payout is a 404. Schemas, problems and security: `payouts/contract.ts`.
 */
import { unwrap } from "../kernel/outcome";
import { getPayout, listPayouts, retryPayout, unpaidOrders } from "./contract";
import { asCaller, keyedRouter } from "../tenant/door/gateway-key";

export const payoutRoutes = keyedRouter()
  .openapi(listPayouts, async (c) => {
    const { state, limit } = c.req.valid("query");
    return c.json(
      { payouts: unwrap(await asCaller(c, (f) => f.payouts(state ?? null, limit))) },
      200,
    );
  })
  .openapi(unpaidOrders, async (c) =>
    c.json(unwrap(await asCaller(c, (f) => f.unpaidOrders(c.req.valid("query").limit))), 200),
  )
  .openapi(getPayout, async (c) => {
    const { source, payoutId } = c.req.valid("param");
    return c.json(unwrap(await asCaller(c, (f) => f.payout(source, payoutId))), 200);
  })
  .openapi(retryPayout, async (c) => {
    const { source, payoutId } = c.req.valid("param");
    return c.json(unwrap(await asCaller(c, (f) => f.retryPayout(source, payoutId))), 202);
  });
