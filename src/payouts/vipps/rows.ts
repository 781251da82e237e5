/**
 * @module
 * A Vipps MobilePay ledger's rows made into payouts. Rows since the last payout are carried, date
 * after date, until a `payout-scheduled` row pays the balance out: that payout's lines are every
 * row carried, so its deposit is their sum and the balance it came in with. Entry types are mapped
 * to line types by name; one not known becomes an `unknown` line, which holds its payout. Pure.
 */
import { z } from "zod";
import { MAX_PAYOUT_LINES } from "../../orders/adapters/standard-schema";
import { PayoutLine, type PayoutLineType } from "../payout";
import type { Row } from "./api";

/** The rows that are the payout itself (the second, an older name). */
const PAYOUT_TYPES = new Set(["payout-scheduled", "scheduled-for-payout"]);

/** Vipps's entry types the gateway books, each as a line of its kind. */
const LINE_TYPES: Record<string, PayoutLineType> = {
  capture: "charge",
  refund: "refund",
  "fees-retained": "fee",
  correction: "adjustment",
  "top-up": "adjustment",
  "credit-note": "adjustment",
  "retained-disputed-capture": "dispute",
  "returned-disputed-capture": "dispute",
};

/** Rows read since the ledger's last payout, and what the payout that takes them will need. */
export const Carried = z.object({
  lines: z.array(PayoutLine),
  dates: z.array(z.iso.date()),
  /** The balance before the first of them: 0 after a payout. */
  balanceIn: z.int(),
  /** Gross settlement's fees of those dates, left for Vipps's invoice. */
  feesInvoiced: z.int(),
});
export type Carried = z.output<typeof Carried>;

export const NOTHING_CARRIED: Carried = { lines: [], dates: [], balanceIn: 0, feesInvoiced: 0 };

/** A payout found in a date's rows. */
export interface FoundPayout {
  id: string;
  amount: number;
  lines: PayoutLine[];
  dates: string[];
  /** The balance its date began with: negative when an earlier date's was carried and is repaid. */
  carriedIn: number;
  feesInvoiced: number;
}

export interface DateRead {
  payouts: FoundPayout[];
  carried: Carried;
  /** The balance after the date's last row (negative: carried, no payout made). */
  balanceAfter: number;
  unknown: number;
  fundsRows: number;
  /** Gross settlement: the date's own fees, left for Vipps's invoice. */
  feesInvoiced: number;
}

/** The order id a payment's reference names: the shop's prefix taken off. */
export const orderIdOf = (reference: string, prefix: string) =>
  prefix !== "" && reference.startsWith(prefix) ? reference.slice(prefix.length) : reference;

const sum = (rows: readonly Row[]) => rows.reduce((n, r) => n + r.amount, 0);

function lineOf(row: Row, prefix: string): PayoutLine {
  const type = LINE_TYPES[row.entryType] ?? "unknown";
  const names = type === "charge" || type === "refund";
  return {
    type,
    orderId: names && row.reference !== "" ? orderIdOf(row.reference, prefix) : null,
    refundId: null,
    amount: row.amount,
    fee: 0,
    entryType: row.entryType,
  };
}

/**
 * One closed date's funds rows (in Vipps's order) and fees rows, after what was carried into it.
 * `prefix`: what the shop puts before its order id in a payment's reference.
 */
export function readDate(
  carriedIn: Carried,
  date: string,
  funds: readonly Row[],
  fees: readonly Row[],
  prefix: string,
): DateRead {
  let carried: Carried = { ...carriedIn, lines: [...carriedIn.lines] };
  // With nothing carried, the balance before the date's first row is what the payout starts
  // from: 0 after a payout, or a balance from before the ledger was first read.
  const first = funds[0];
  if (carried.lines.length === 0 && first) carried.balanceIn = first.balanceBefore;
  const withDate = (dates: string[]) => (dates.includes(date) ? dates : [...dates, date]);
  const charged = -sum(fees.filter((r) => r.entryType === "capture-fee"));
  const retained = sum(fees.filter((r) => r.entryType === "fees-retained"));
  const feesInvoiced = Math.max(0, charged - retained);
  carried.feesInvoiced += feesInvoiced;
  const payouts: FoundPayout[] = [];
  let unknown = 0;
  let balance = first?.balanceBefore ?? carried.balanceIn;
  for (const row of funds) {
    balance = row.balanceAfter;
    if (PAYOUT_TYPES.has(row.entryType)) {
      payouts.push({
        id: row.pspReference,
        amount: -row.amount,
        lines: withCarriedBalance(carried, date),
        dates: withDate(carried.dates),
        carriedIn: payouts.length === 0 ? (first?.balanceBefore ?? 0) : 0,
        feesInvoiced: carried.feesInvoiced,
      });
      carried = { lines: [], dates: [], balanceIn: row.balanceAfter, feesInvoiced: 0 };
      continue;
    }
    const line = lineOf(row, prefix);
    if (line.type === "unknown") unknown++;
    carried.lines.push(line);
    carried.dates = withDate(carried.dates);
  }
  return {
    payouts,
    carried,
    balanceAfter: balance,
    unknown,
    fundsRows: funds.length,
    feesInvoiced,
  };
}

/**
 * The carried lines, and a balance carried from before the ledger was read as a line of its own:
 * nothing says what it was, so it is `unknown` and holds the payout until the operator sees it.
 * Past the most lines one payout may have, the rest is one `unknown` line too.
 */
function withCarriedBalance(c: Carried, date: string): PayoutLine[] {
  const own = (entryType: string, amount: number): PayoutLine => ({
    type: "unknown",
    orderId: null,
    refundId: null,
    amount,
    fee: 0,
    entryType,
  });
  const lines =
    c.balanceIn === 0
      ? c.lines
      : [own(`balance before ${c.dates[0] ?? date}`, c.balanceIn), ...c.lines];
  if (lines.length <= MAX_PAYOUT_LINES) return lines;
  const kept = lines.slice(0, MAX_PAYOUT_LINES - 1);
  const rest = lines.slice(MAX_PAYOUT_LINES - 1).reduce((n, l) => n + l.amount, 0);
  return [...kept, own(`${lines.length - kept.length} more rows`, rest)];
}
