/**
 * @module
 * The declarations of `/payouts/*` (gateway key): each payout's reconciliation, the list by state,
 * the orders settled to a clearing account and in no payout yet, and a retry. `payouts/routes.ts`
 * binds a handler to each.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { SECURITY } from "../kernel/openapi/security";
import { PayoutSource } from "./payout";
import { PayoutState } from "./records";
import { PayoutView, UnpaidOrder } from "./view";
import { guarded, jsonAnswer, tagged } from "../kernel/routes/contract-kit";

const Limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(500)
  .default(100)
  .openapi({ description: "At most this many, 1–500." });
const ListQuery = z.strictObject({
  state: PayoutState.optional().openapi({
    description: "Only payouts in this state (e.g. `unmatched`).",
  }),
  limit: Limit,
});
const PayoutParams = z.object({ source: PayoutSource, payoutId: z.string().min(1).max(100) });

/** A payout as the tenant's gateway key sees it (`payouts/view.ts`); a clone, see orders. */
export const Payout = PayoutView.clone().openapi("Payout", {
  description:
    "A payout's reconciliation: its deposit, its lines summed by kind, its issues, its voucher.",
});
const Unpaid = z
  .strictObject({
    afterDays: z.int().openapi({ description: "Days after its settlement an order is listed." }),
    orders: z.array(UnpaidOrder.clone().openapi("UnpaidOrder")),
  })
  .openapi("UnpaidOrders");

const payouts = tagged("payouts", SECURITY.gatewayKey);

export const listPayouts = createRoute({
  ...payouts.get,
  path: "/",
  operationId: "listPayouts",
  summary: "The tenant's payouts, newest change first",
  request: { query: ListQuery },
  responses: {
    200: jsonAnswer("The payouts.", z.strictObject({ payouts: z.array(Payout) })),
    ...guarded(400),
  },
});

export const unpaidOrders = createRoute({
  ...payouts.get,
  path: "/unpaid-orders",
  operationId: "listUnpaidOrders",
  summary: "Orders settled to a clearing account and in no payout after the mapping's days",
  request: { query: z.strictObject({ limit: Limit }) },
  responses: { 200: jsonAnswer("The orders, longest unpaid first.", Unpaid), ...guarded(400) },
});

export const getPayout = createRoute({
  ...payouts.get,
  path: "/{source}/{payoutId}",
  operationId: "getPayout",
  summary: "One payout's reconciliation, with each step",
  request: { params: PayoutParams },
  responses: { 200: jsonAnswer("The payout.", Payout), ...guarded(404) },
});

export const retryPayout = createRoute({
  ...payouts.post,
  path: "/{source}/{payoutId}/retry",
  operationId: "retryPayout",
  summary: "Reconcile an unmatched or failed payout again (after the cause was fixed)",
  request: { params: PayoutParams },
  responses: {
    202: jsonAnswer("The payout, its new attempt started.", Payout),
    ...guarded(404, 409),
  },
});
