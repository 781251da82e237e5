/**
 * @module
 * What the operator sees of a tenant's Vipps MobilePay reading: the keys' settings (never the
 * keys), the last read and the next, and per ledger the next date, what is carried since its last
 * payout and its latest dates. The published schema, which `vippsView` returns.
 */
import { z } from "zod";
import { formatMinor } from "../../ledger/money";
import type { VippsBook } from "../tenant/vipps-book";
import { VippsDateState } from "../tenant/vipps-book";
import type { VippsKeyStatus } from "../tenant/vipps-keys";

const Decimal = z.string().meta({ description: "An amount, a decimal string." });

export const VippsKeysState = z.strictObject({
  set: z.boolean(),
  settings: z
    .strictObject({
      merchantSerialNumber: z.string(),
      orderSource: z
        .string()
        .meta({ description: "The shop whose orders Vipps's references name." }),
      referencePrefix: z.string(),
      since: z.string().meta({ description: "The first ledger date read." }),
    })
    .nullable(),
  setAt: z.string().nullable(),
});

export const VippsView = z.strictObject({
  keys: VippsKeysState,
  lastRead: z
    .strictObject({
      at: z.string(),
      calls: z.int().meta({ description: "Calls to Vipps, the token's included." }),
      datesRead: z.int(),
      payoutsFound: z.int(),
      error: z.string().nullable(),
    })
    .nullable(),
  nextReadAt: z.string().nullable(),
  ledgers: z.array(
    z.strictObject({
      ledgerId: z.string(),
      currency: z.string(),
      nextDate: z.string().meta({ description: "The first date not read closed yet." }),
      carried: z.strictObject({
        rows: z.int(),
        amount: Decimal.meta({
          description: "Their sum: negative is a balance Vipps carries until a payout repays it.",
        }),
        dates: z.array(z.string()),
      }),
      dates: z.array(
        z.strictObject({
          date: z.string(),
          state: VippsDateState.meta({
            description:
              "`read`: closed and taken; `open`: not closed yet; `overdue`: four days late.",
          }),
          tries: z.int(),
          fundsRows: z.int(),
          payouts: z.array(z.string()),
          balanceAfter: Decimal.nullable(),
          feesInvoiced: Decimal.meta({
            description: "Gross settlement: the date's fees, which Vipps invoices monthly.",
          }),
          unknown: z
            .int()
            .meta({ description: "Rows of an entry type the gateway does not know." }),
        }),
      ),
    }),
  ),
});
export type VippsView = z.output<typeof VippsView>;

/** Dates shown per ledger. */
const SHOWN_DATES = 31;

export function vippsView(keys: VippsKeyStatus, book: VippsBook): VippsView {
  const { nextAt, last } = book.reads();
  return {
    keys,
    lastRead: last && { ...last, at: new Date(last.at).toISOString() },
    nextReadAt: keys.set && nextAt !== null ? new Date(nextAt).toISOString() : null,
    ledgers: book.ledgers().map((l) => ({
      ledgerId: l.ledger_id,
      currency: l.currency,
      nextDate: l.next_date,
      carried: {
        rows: l.carried.lines.length,
        amount: formatMinor(l.carried.lines.reduce((n, x) => n + x.amount, 0)),
        dates: l.carried.dates,
      },
      dates: book.dates(l.ledger_id, SHOWN_DATES).map((d) => ({
        date: d.date,
        state: d.state,
        tries: d.tries,
        fundsRows: d.funds_rows,
        payouts: d.payouts,
        balanceAfter: d.balance_after === null ? null : formatMinor(d.balance_after),
        feesInvoiced: formatMinor(d.fees_invoiced),
        unknown: d.unknown,
      })),
    })),
  };
}
