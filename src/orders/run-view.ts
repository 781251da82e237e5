/**
 * @module
 * An order's run as the tenant's gateway key sees it (`/orders`, and a webhook's answer). The
 * schema is the one `/openapi.json` publishes, and `publicView` returns its type, so the two agree.
 */
import { z } from "zod";
import { formatMinor } from "../ledger/money";
import { Source } from "./order";
import { Provider } from "../ledger/providers";
import { RefundState, RunState, StepRecord, type OrderRun } from "./runs";

const StepView = StepRecord.strict();

/** One refund's run: its amount as a decimal, never its lines. */
const RefundView = z.strictObject({
  id: z.string(),
  state: RefundState,
  total: z.string().meta({ description: "The refunded amount, a decimal." }),
  creditNoteNo: z.int().nullable(),
  error: z.string().nullable(),
  steps: z.array(StepView),
});

/** A run as the tenant's gateway key sees it: no payloads, no buyer, amounts as decimals. */
export const OrderRunView = z.strictObject({
  source: Source,
  orderId: z.string(),
  number: z.string().nullable().meta({
    description: "The order's number in the shop; null while no usable order has arrived.",
  }),
  state: RunState,
  total: z.string().nullable().meta({ description: "The order's total, a decimal." }),
  currency: z.string().nullable(),
  receivedAt: z.string(),
  updatedAt: z.string(),
  deliveries: z.int().meta({ description: "Webhook deliveries received for this order." }),
  cancelledAt: z.string().nullable(),
  attempt: z.int(),
  customer: z
    .strictObject({
      id: z.int(),
      number: z.int().nullable(),
      created: z.boolean().meta({ description: "Whether the run created the customer." }),
    })
    .nullable()
    .meta({ description: "The customer the invoice went to, once the run found or made one." }),
  salesOrderId: z.string().nullable(),
  salesOrderNo: z.int().nullable(),
  invoiceNo: z.int().nullable(),
  payment: z
    .strictObject({
      method: z
        .string()
        .nullable()
        .meta({ description: "How the buyer paid, as the shop named it." }),
      title: z.string().nullable().meta({ description: "The shop's own words for the method." }),
      provider: Provider.nullable().meta({
        description: "Who pays the order out to the shop, once it is settled.",
      }),
      clearingAccount: z.int().nullable().meta({
        description: "The account the order's money waits in until that payout, once settled.",
      }),
    })
    .nullable()
    .meta({ description: "How the order was paid; null while no usable order has arrived." }),
  error: z.strictObject({ step: z.string(), detail: z.string() }).nullable(),
  steps: z.array(StepView),
  refunds: z.array(RefundView),
});
export type OrderRunView = z.output<typeof OrderRunView>;

/** The record as the tenant's gateway key sees it: exactly the fields of `OrderRunView`. */
export function publicView(r: OrderRun): OrderRunView {
  return {
    source: r.source,
    orderId: r.orderId,
    number: r.order?.number ?? null,
    state: r.state,
    total: r.order ? formatMinor(r.order.total) : null,
    currency: r.order?.currency ?? null,
    receivedAt: r.receivedAt,
    updatedAt: r.updatedAt,
    deliveries: r.deliveries,
    cancelledAt: r.cancelledAt,
    attempt: r.attempt,
    customer: r.customer && {
      id: r.customer.id,
      number: r.customer.number,
      created: r.customer.created,
    },
    salesOrderId: r.salesOrderId,
    salesOrderNo: r.salesOrderNo,
    invoiceNo: r.invoiceNo,
    payment: r.order && {
      method: r.order.paymentMethod ?? null,
      title: r.order.paymentTitle ?? null,
      provider: r.settlement?.provider ?? null,
      clearingAccount: r.settlement?.accountNo ?? null,
    },
    error: r.error,
    steps: r.steps,
    refunds: r.refunds.map((x) => ({
      id: x.refund.id,
      state: x.state,
      total: formatMinor(x.refund.total),
      creditNoteNo: x.creditNoteNo,
      error: x.error,
      steps: x.steps,
    })),
  };
}
