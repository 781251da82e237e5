/**
 * @module
 * A payout, and an unpaid order, as the tenant's callers see them: the published schemas, which
 * the functions return, so the two cannot drift. Lines are summed by kind, not listed (a payout
 * may have thousands).
 */
import { z } from "zod";
import { formatMinor } from "../ledger/money";
import { Source } from "../orders/order";
import { StepRecord, type OrderRun } from "../orders/runs";
import { PayoutSource, type PayoutLineType } from "./payout";
import { IssueReason, PayoutState, type PayoutRecord } from "./records";

const Decimal = z.string().meta({ description: "An amount, a decimal string." });

const LineSum = z.strictObject({ lines: z.int(), amount: Decimal, fee: Decimal });

export const PayoutView = z.strictObject({
  source: PayoutSource,
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
    unknown: LineSum.meta({
      description: "Entries of a type the gateway does not know (Vipps's): the payout is held.",
    }),
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
  confirmedBy: z.enum(["operator"]).nullable().meta({
    description:
      "`operator`: the operator confirmed it though it pays out no order (`needs-orders`); null until then, and again once a `payout.paid` with other lines replaces it.",
  }),
  confirmedAt: z.string().nullable().meta({ description: "When the operator confirmed it." }),
  steps: z.array(StepRecord.strict()),
  stripe: z
    .strictObject({
      automatic: z.boolean().meta({ description: "False: a manual payout." }),
      method: z.string().meta({ description: "`standard` or `instant`." }),
      reconciliationStatus: z.enum(["completed", "in_progress", "not_applicable"]),
      transactionsRead: z
        .int()
        .nullable()
        .meta({ description: "Balance transactions read from Stripe; null until read." }),
      notItemised: z
        .string()
        .nullable()
        .meta({ description: "Why Stripe cannot itemise it (manual or instant); null if it can." }),
      clearing: z
        .strictObject({
          accountNo: z.int(),
          balance: Decimal,
          currency: z.string(),
          asOf: z.string(),
        })
        .nullable()
        .meta({
          description:
            "For a payout not itemised: the clearing account's balance on its arrival date, read once from the API.",
        }),
    })
    .nullable()
    .meta({
      description: "A payout read from Stripe; null for one whose lines came in its event.",
    }),
  vipps: z
    .strictObject({
      ledgerId: z.string(),
      dates: z.array(z.string()).meta({
        description: "The ledger dates it pays out: earlier ones when their balance was carried.",
      }),
      carriedIn: Decimal.meta({
        description:
          "The balance its date began with: negative when an earlier date's was carried and this payout repays it.",
      }),
      feesInvoiced: Decimal.meta({
        description:
          "Gross settlement: its captures' fees, which Vipps invoices monthly; not booked here.",
      }),
    })
    .nullable()
    .meta({ description: "A payout read from a Vipps MobilePay ledger; null for any other." }),
});
export type PayoutView = z.output<typeof PayoutView>;

const TYPES: PayoutLineType[] = ["charge", "refund", "fee", "adjustment", "dispute", "unknown"];

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
    confirmedBy: r.confirmedBy ?? null,
    confirmedAt: r.confirmedAt ?? null,
    steps: r.steps,
    stripe: r.stripe && {
      automatic: r.stripe.automatic,
      method: r.stripe.method,
      reconciliationStatus: r.stripe.reconciliation,
      transactionsRead: r.stripe.linesRead,
      notItemised: r.stripe.notItemised,
      clearing: r.stripe.clearing && {
        accountNo: r.stripe.clearing.accountNo,
        balance: formatMinor(r.stripe.clearing.balance),
        currency: r.stripe.clearing.currency,
        asOf: r.stripe.clearing.asOf,
      },
    },
    vipps: r.vipps && {
      ledgerId: r.vipps.ledgerId,
      dates: r.vipps.dates,
      carriedIn: formatMinor(r.vipps.carriedIn),
      feesInvoiced: formatMinor(r.vipps.feesInvoiced),
    },
  };
}

/** An order settled to a clearing account that no payout has paid out. */
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

/** Null for an order without a recorded settlement. */
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
