/**
 * @module
 * A payout's one bank voucher from its plan: the deposit, the clearing credits, fees, adjustments,
 * disputes and any currency difference. It balances by construction: a plan exists only when the
 * lines add up to the deposit. See docs/payouts.md.
 */
import type { z } from "zod";
import type { BankVoucherLinePost, BankVoucherPost } from "../../shared/v2/vouchers";
import { mulDiv, toDecimal } from "../ledger/money";
import { BASE_CURRENCY } from "./match";
import type { BookingPlan } from "./plan";

export type PayoutVoucherBody = z.input<typeof BankVoucherPost>;
type Line = z.input<typeof BankVoucherLinePost>;

/** Ids only the API knows: accounts by number, VAT code 0, and the fee lines' VAT code. */
export interface VoucherIds {
  accounts: Record<number, number>;
  noVatId: number;
  feeVatId: number;
}

export const rateKey = (currency: string, date: string) => `${currency}:${date}`;

/** Rates are kept to six decimals, as the API answers them: integer millionths keep sums exact. */
const MICRO = 1_000_000;

/**
 * The voucher of `plan`, and what the rates made of it in øre (positive: a loss, a debit).
 *
 * @throws Error when an id or a rate the plan needs is missing: the run looked them up first
 */
export function voucherOf(
  plan: BookingPlan,
  ids: VoucherIds,
  rates: Record<string, number>,
): { body: PayoutVoucherBody; currencyDifference: number } {
  const fx = plan.rates.length > 0 || plan.clearing.some((c) => c.currency !== plan.currency);
  const idOf = (accountNo: number) => {
    const id = ids.accounts[accountNo];
    if (id === undefined) throw new Error(`no id for account ${accountNo}`);
    return id;
  };
  const rateOf = (currency: string, date: string) => {
    if (currency === BASE_CURRENCY) return 1;
    const r = rates[rateKey(currency, date)];
    if (r === undefined) throw new Error(`no rate for ${currency} on ${date}`);
    return r;
  };
  const lines: Line[] = [];
  let base = 0;
  const add = (o: {
    accountNo: number;
    amount: number;
    currency: string;
    rateDate: string;
    vatId: number;
    what: string;
  }) => {
    if (o.amount === 0) return;
    const rate = fx ? rateOf(o.currency, o.rateDate) : 1;
    base += mulDiv(o.amount, Math.round(rate * MICRO), MICRO);
    lines.push({
      AccountId: idOf(o.accountNo),
      CurrencyAmount: toDecimal(o.amount),
      CurrencyCode: o.currency,
      ...(fx && o.currency !== BASE_CURRENCY ? { CurrencyExchangeRate: rate } : {}),
      VatId: o.vatId,
      PostingDate: plan.date,
      Description: `${plan.description}: ${o.what}`,
    });
  };
  const own = { currency: plan.currency, rateDate: plan.date, vatId: ids.noVatId };
  add({ ...own, accountNo: plan.bankAccount, amount: plan.deposit, what: "deposit" });
  for (const c of plan.clearing)
    add({
      accountNo: c.accountNo,
      amount: -c.amount,
      currency: c.currency,
      rateDate: c.date ?? plan.date,
      vatId: ids.noVatId,
      what: `${counted(c.orders, "order")}, ${counted(c.refunds, "refund")}${c.date ? ` settled ${c.date}` : ""}`,
    });
  add({ ...own, accountNo: plan.feeAccount, amount: plan.fees, vatId: ids.feeVatId, what: "fees" });
  add({ ...own, accountNo: plan.adjustmentAccount, amount: plan.adjustments, what: "adjustments" });
  add({ ...own, accountNo: plan.disputeAccount, amount: plan.disputes, what: "disputes" });
  // In several currencies the voucher balances in the base currency: the rest is the rates'.
  const difference = -base;
  if (fx && difference !== 0)
    add({
      accountNo: difference > 0 ? plan.lossAccount : plan.gainAccount,
      amount: difference,
      currency: BASE_CURRENCY,
      rateDate: plan.date,
      vatId: ids.noVatId,
      what: difference > 0 ? "currency loss" : "currency gain",
    });
  return {
    body: {
      VoucherDate: plan.date,
      CurrencyCode: plan.currency,
      ExternalImportReference: plan.reference,
      Description: plan.description,
      VoucherLines: lines,
    },
    currencyDifference: fx ? difference : 0,
  };
}

export function planAccounts(plan: BookingPlan): number[] {
  const fx = plan.rates.length > 0 || plan.clearing.some((c) => c.currency !== plan.currency);
  const all = [plan.bankAccount, ...plan.clearing.map((c) => c.accountNo)];
  if (plan.fees !== 0) all.push(plan.feeAccount);
  if (plan.adjustments !== 0) all.push(plan.adjustmentAccount);
  if (plan.disputes !== 0) all.push(plan.disputeAccount);
  if (fx) all.push(plan.gainAccount, plan.lossAccount);
  return [...new Set(all)];
}

/** `1 order`, `2 orders`: a count and its noun, as a voucher line says it. */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
