/**
 * @module
 * `/payouts/*` (gateway key of the tenant): where each payout's reconciliation stands, the list by
 * state, the orders settled but in no payout, and a retry. The tenant comes from the authenticated
 * key; another tenant's payout is a 404. Schemas, problems and security: `payouts/contract.ts`.
 */
import type { Context } from "hono";
import type { GatewayApp } from "../kernel/app";
import { unwrap } from "../kernel/outcome";
import { asKeyHolder, type KeyHolderStub } from "../kernel/stubs";
import { gatewayKey } from "../tenant/door/gateway-key";
import { gatewayRouter } from "../kernel/routes/contract-kit";
import { getPayout, listPayouts, retryPayout, unpaidOrders } from "./contract";

/** `call` on the caller's face of its tenant's object (the key is checked there). */
const own = <T>(c: Context<GatewayApp>, call: (face: KeyHolderStub) => T) =>
  asKeyHolder(c.env, c.var.caller, call);

const router = gatewayRouter();
router.use("*", gatewayKey());

export const payoutRoutes = router
  .openapi(listPayouts, async (c) => {
    const { state, limit } = c.req.valid("query");
    return c.json({ payouts: unwrap(await own(c, (f) => f.payouts(state ?? null, limit))) }, 200);
  })
  .openapi(unpaidOrders, async (c) =>
    c.json(unwrap(await own(c, (f) => f.unpaidOrders(c.req.valid("query").limit))), 200),
  )
  .openapi(getPayout, async (c) => {
    const { source, payoutId } = c.req.valid("param");
    return c.json(unwrap(await own(c, (f) => f.payout(source, payoutId))), 200);
  })
  .openapi(retryPayout, async (c) => {
    const { source, payoutId } = c.req.valid("param");
    return c.json(unwrap(await own(c, (f) => f.retryPayout(source, payoutId))), 202);
  });
