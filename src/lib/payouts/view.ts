/**
 * @module
 * A payout as a caller with the tenant's gateway key sees it (`GET /payouts/{source}/{payoutId}`,
 * the list, the retry), and an unpaid order (`GET /payouts/unpaid-orders`). The schemas are the
 * ones `/openapi.json` publishes, and the functions return their types, so a field added to one
 * and not the other fails to compile. Money as decimal strings, as everywhere in ledgergate's
 * own answers; the lines are summed by kind, not listed (a payout may have thousands).
 */
import { z } from "zod";
import { formatMinor } from "../orders/money";
import { Source } from "../orders/order";
import { StepRecord, type OrderRun } from "../orders/runs";
import type { PayoutLineType } from "./payout";
import { IssueReason, PayoutState, type PayoutRecord } from "./records";

const Decimal = z.string().meta({ description: "An amount, a decimal string." });

/** The lines of one kind: how many, their gross amounts and their fees. */
const LineSum = z.strictObject({ lines: z.int(), amount: Decimal, fee: Decimal });

/** A payout as the tenant's gateway key sees it. */
export const PayoutView = z.strictObject({
  source: Source,
  payoutId: z.string(),
  provider: z.string(),
  currency: z.string(),
  amount: Decimal.meta({ description: "The deposit, as the bank statement shows it." }),
  arrivalDate: z.string(),
  orderSource: Source.meta({ description: "The source whose orders its lines name." }),
  state: PayoutState,
  receivedAt: z.string(),
  updatedAt: z.string(),
  deliveries: z.int(),
  attempt: z.int(),
  failed: z
    .strictObject({ at: z.string(), reason: z.string().nullable() })
    .nullable()
    .meta({ description: "When the provider said the payout failed (payout.failed)." }),
  lines: z.strictObject({
    charge: LineSum,
    refund: LineSum,
    fee: LineSum,
    adjustment: LineSum,
    dispute: LineSum,
  }),
  issues: z
    .array(
      z.strictObject({
        line: z
          .int()
          .nullable()
          .meta({ description: "The line's index (from 0); null: the payout's own." }),
        orderId: z.string().nullable(),
        refundId: z.string().nullable(),
        reason: IssueReason,
        detail: z.string(),
      }),
    )
    .meta({ description: "What keeps it from being booked (the first 200)." }),
  issueCount: z.int(),
  voucher: z
    .strictObject({
      reference: z.string().meta({ description: "Its ExternalImportReference." }),
      bankAccount: z.int(),
      id: z.string().nullable(),
      number: z.int().nullable(),
    })
    .nullable(),
  error: z.strictObject({ step: z.string(), detail: z.string() }).nullable(),
  steps: z.array(StepRecord.strict()),
});
export type PayoutView = z.output<typeof PayoutView>;

const TYPES: PayoutLineType[] = ["charge", "refund", "fee", "adjustment", "dispute"];

/** The record as the tenant's gateway key sees it. */
export function payoutView(r: PayoutRecord): PayoutView {
  const p = r.payout;
  const sums = Object.fromEntries(
    TYPES.map((type) => {
      const of = p.lines.filter((l) => l.type === type);
      return [
        type,
        {
          lines: of.length,
          amount: formatMinor(of.reduce((n, l) => n + l.amount, 0)),
          fee: formatMinor(of.reduce((n, l) => n + l.fee, 0)),
        },
      ];
    }),
  ) as PayoutView["lines"];
  return {
    source: r.source,
    payoutId: r.payoutId,
    provider: p.provider,
    currency: p.currency,
    amount: formatMinor(p.amount),
    arrivalDate: p.arrivalDate,
    orderSource: p.orderSource,
    state: r.state,
    receivedAt: r.receivedAt,
    updatedAt: r.updatedAt,
    deliveries: r.deliveries,
    attempt: r.attempt,
    failed: r.failed,
    lines: sums,
    issues: r.issues,
    issueCount: r.issueCount,
    voucher: r.voucher,
    error: r.error,
    steps: r.steps,
  };
}

/** An order settled to a clearing account that no payout has paid out yet. */
export const UnpaidOrder = z.strictObject({
  source: Source,
  orderId: z.string(),
  number: z.string().nullable(),
  total: Decimal.nullable(),
  currency: z.string().nullable(),
  settledTo: z.int().meta({ description: "The account it was settled to." }),
  settledOn: z.string().meta({ description: "The settlement's day (YYYY-MM-DD)." }),
});
export type UnpaidOrder = z.output<typeof UnpaidOrder>;

/** The order as the unpaid list shows it; null for one without a recorded settlement. */
export function unpaidView(r: OrderRun): UnpaidOrder | null {
  if (!r.settlement) return null;
  return {
    source: r.source,
    orderId: r.orderId,
    number: r.order?.number ?? null,
    total: r.order ? formatMinor(r.order.total) : null,
    currency: r.order?.currency ?? null,
    settledTo: r.settlement.accountNo,
    settledOn: r.settlement.date,
  };
}
