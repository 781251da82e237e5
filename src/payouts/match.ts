/**
 * @module
 * A payout's lines matched to the tenant's settled orders and refunds and, when all match and add
 * up to the deposit, the plan of its one bank voucher. Nothing is guessed: every mismatch is an
 * issue naming its line, and nothing is booked. Pure; the tenant's object claims the matched
 * orders in the same synchronous stretch, so two payouts never book one order.
 */
import { formatMinor } from "../ledger/money";
import type { OrderMapping } from "../ledger/mapping";
import { reference } from "../ledger/refs";
import type { Payout, PayoutLine } from "./payout";
import type { ClearingCredit, MatchLookup, MatchResult, Settled } from "./plan";
import { MAX_ISSUES, type IssueReason, type PayoutIssue } from "./records";
import { rulesIssue } from "./rules";

/** Distinct (currency, day) rates one payout may look up, a call each: a month of settlements. */
export const MAX_RATE_LOOKUPS = 31;

/** The client's own currency, into which the API converts every line. */
export const BASE_CURRENCY = "NOK";

function lineSettlement(
  l: PayoutLine,
  i: number,
  lookup: MatchLookup,
  payout: Payout,
): Settled | Omit<PayoutIssue, "line" | "orderId" | "refundId"> {
  const issue = (reason: IssueReason, detail: string) => ({ reason, detail });
  const what = l.type === "refund" ? `refund ${l.refundId ?? "(none)"} of order` : "order";
  if (l.orderId === null && l.paymentRef)
    return issue(
      "no-order",
      `line ${i}: a ${l.type} of payment ${l.paymentRef}, which no ${payout.orderSource} order of this tenant was paid with`,
    );
  if (l.orderId === null || (l.type === "refund" && l.refundId === null))
    return issue(
      "no-order",
      `line ${i}: a ${l.type} that names no ${l.orderId ? "refund" : "order"}`,
    );
  const order = lookup.order(l.orderId);
  if (!order)
    return issue(
      "unknown-order",
      `line ${i}: no ${payout.orderSource} order ${l.orderId} has reached this tenant`,
    );
  const settled = l.type === "refund" ? order.refunds[l.refundId ?? ""] : order.settled;
  if (settled === undefined)
    return issue("unknown-refund", `line ${i}: order ${l.orderId} has no refund ${l.refundId}`);
  if (settled === null)
    return issue("not-settled", `line ${i}: ${what} ${l.orderId} is not settled (yet)`);
  const other = lookup.claimedBy(l.orderId, l.type === "refund" ? l.refundId : null);
  if (other !== null && other !== payout.id)
    return issue(
      "in-other-payout",
      `line ${i}: ${what} ${l.orderId} is in payout ${other} already`,
    );
  const expected = l.type === "refund" ? -settled.total : settled.total;
  if (settled.currency === payout.currency && l.amount !== expected)
    return issue(
      "amount-differs",
      `line ${i}: ${formatMinor(l.amount)} ${payout.currency}, but ${what} ${l.orderId} settled ${formatMinor(expected)}`,
    );
  return settled;
}

/**
 * The plan of `payout`'s voucher and the orders to claim, or its issues. `ordersWaived`: the
 * operator confirmed it pays out no order.
 */
export function matchPayout(
  source: Parameters<typeof reference>[0],
  payout: Payout,
  lookup: MatchLookup,
  mapping: OrderMapping,
  ordersWaived = false,
): MatchResult {
  const forbidden = rulesIssue(source, payout, ordersWaived);
  if (forbidden) return { kind: "unmatched", issues: [forbidden], issueCount: 1 };
  const m = mapping.payouts;
  const issues: PayoutIssue[] = [];
  let issueCount = 0;
  const add = (x: PayoutIssue) => {
    issueCount++;
    if (issues.length < MAX_ISSUES) issues.push(x);
  };
  const seen = new Set<string>();
  const matched: { line: PayoutLine; settled: Settled }[] = [];
  let fees = 0;
  let adjustments = 0;
  let disputes = 0;
  const refundOf = refundsByAmount(lookup, payout.id);
  for (const [i, line] of payout.lines.entries()) {
    // A line that names its payment, not its order (Stripe's): the order that payment paid.
    const paid =
      line.orderId === null && line.paymentRef
        ? { ...line, orderId: lookup.orderOfPayment?.(line.paymentRef) ?? null }
        : line;
    // A refund that names only its order (Vipps's): that order's refund of the same amount.
    const l =
      paid.type === "refund" && paid.refundId === null && paid.orderId !== null
        ? { ...paid, refundId: refundOf(paid.orderId, -paid.amount) }
        : paid;
    fees += l.fee;
    if (l.type === "fee") fees -= l.amount;
    else if (l.type === "adjustment") adjustments -= l.amount;
    else if (l.type === "dispute") disputes -= l.amount;
    else if (l.type === "unknown")
      add({
        line: i,
        orderId: null,
        refundId: null,
        reason: "unknown-entry",
        detail: `line ${i}: ${payout.provider}'s entry type "${l.entryType ?? "(none)"}" (${formatMinor(l.amount)} ${payout.currency}) is not one ledgergate knows how to book; the payout is held, not guessed`,
      });
    if (l.type !== "charge" && l.type !== "refund") continue;
    const at = { line: i, orderId: l.orderId, refundId: l.type === "refund" ? l.refundId : null };
    const key = JSON.stringify([at.orderId ?? l.paymentRef ?? null, at.refundId]);
    if (seen.has(key)) {
      add({
        ...at,
        reason: "duplicate-line",
        detail: `line ${i}: the same ${l.type} as an earlier line`,
      });
      continue;
    }
    seen.add(key);
    const settled = lineSettlement(l, i, lookup, payout);
    if ("reason" in settled) add({ ...at, ...settled });
    else if (settled.settlement.accountNo === m.bankAccount)
      add({
        ...at,
        reason: "settled-to-bank",
        detail: `line ${i}: order ${l.orderId} was settled to the bank account ${m.bankAccount}, so its money is booked there already; settle to a clearing account (docs/payouts.md)`,
      });
    else matched.push({ line: l, settled });
  }
  const net = payout.lines.reduce((n, l) => n + l.amount - l.fee, 0);
  if (net !== payout.amount)
    add({
      line: null,
      orderId: null,
      refundId: null,
      reason: "deposit-differs",
      detail: `the lines add up to ${formatMinor(net)} ${payout.currency} (amount − fee), the deposit is ${formatMinor(payout.amount)}: ${formatMinor(payout.amount - net)} is not explained`,
    });
  const fx = matched.some((x) => x.settled.currency !== payout.currency);
  const clearing = new Map<string, ClearingCredit>();
  for (const { line, settled } of matched) {
    const date = fx ? settled.settlement.date : null;
    const k = JSON.stringify([settled.settlement.accountNo, settled.currency, date]);
    const c = clearing.get(k) ?? {
      accountNo: settled.settlement.accountNo,
      currency: fx ? settled.currency : payout.currency,
      date,
      amount: 0,
      orders: 0,
      refunds: 0,
    };
    // In another currency than the payout's, the order's own amount left clearing.
    c.amount += fx ? (line.type === "refund" ? -settled.total : settled.total) : line.amount;
    if (line.type === "refund") c.refunds++;
    else c.orders++;
    clearing.set(k, c);
  }
  const rates = fx ? rateLookups(payout, [...clearing.values()]) : [];
  if (rates.length > MAX_RATE_LOOKUPS)
    add({
      line: null,
      orderId: null,
      refundId: null,
      reason: "too-many-rates",
      detail: `its orders were settled on ${rates.length} different days in another currency; at most ${MAX_RATE_LOOKUPS} are looked up for one payout`,
    });
  if (issueCount > 0) return { kind: "unmatched", issues, issueCount };
  return {
    kind: "matched",
    claims: matched.map(({ line }) => ({
      orderId: line.orderId ?? "",
      refundId: line.type === "refund" ? line.refundId : null,
    })),
    plan: {
      reference: reference(source, "po", payout.id),
      date: payout.arrivalDate,
      currency: payout.currency,
      description: `${payout.provider} payout ${payout.id}`,
      deposit: payout.amount,
      bankAccount: m.bankAccount,
      clearing: [...clearing.values()],
      fees,
      adjustments,
      disputes,
      feeAccount: m.feeAccount,
      feeVatCode: m.feeVatCode,
      adjustmentAccount: m.adjustmentAccount,
      disputeAccount: m.disputeAccount,
      gainAccount: m.currencyGainAccount,
      lossAccount: m.currencyLossAccount,
      rates,
    },
  };
}

/**
 * The order's settled refund of `total` that no other payout holds and no earlier line took, or
 * null: two refunds of one amount are taken in turn.
 */
function refundsByAmount(lookup: MatchLookup, payoutId: string) {
  const taken = new Set<string>();
  return (orderId: string, total: number): string | null => {
    for (const [refundId, s] of Object.entries(lookup.order(orderId)?.refunds ?? {})) {
      const key = JSON.stringify([orderId, refundId]);
      const other = lookup.claimedBy(orderId, refundId);
      if (s?.total !== total || taken.has(key) || (other !== null && other !== payoutId)) continue;
      taken.add(key);
      return refundId;
    }
    return null;
  };
}

function rateLookups(payout: Payout, clearing: ClearingCredit[]) {
  const wanted = new Map<string, { currency: string; date: string }>();
  const want = (currency: string, date: string) => {
    if (currency !== BASE_CURRENCY) wanted.set(`${currency}:${date}`, { currency, date });
  };
  want(payout.currency, payout.arrivalDate);
  for (const c of clearing) if (c.date !== null) want(c.currency, c.date);
  return [...wanted.values()];
}
