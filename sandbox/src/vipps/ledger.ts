/**
 * @module
 * What the Vipps MobilePay stand-in makes of a ledger date when it closes: the funds rows (the
 * date's captures, refunds and other entries, the fees retained under net settlement, and the
 * payout of a positive balance) and the fees rows, with running balances. Pure. A balance that is
 * not positive is carried to the next date and no payout is made, as Vipps does.
 */

/** One row of the Report API (`…/{funds|fees}/dates/{date}`): minor units, signed. */
export interface VippsRow {
  pspReference: string;
  time: string;
  ledgerDate: string;
  entryType: string;
  reference: string;
  currency: string;
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
  recipientHandle: string;
}

/** What was added to an open date, in order; `fee` only of a capture. */
export type Pending =
  | { kind: "capture"; reference: string; amount: number; fee: number; pspReference: string }
  | { kind: "refund"; reference: string; amount: number; pspReference: string }
  | { kind: "entry"; entryType: string; reference: string; amount: number; pspReference: string };

export interface LedgerState {
  ledgerId: string;
  currency: string;
  recipientHandle: string;
  settlement: "net" | "gross";
  /** The funds balance carried into this date (0 after a payout; negative when carried). */
  balance: number;
  /** The fees balance (gross: the fees owed until Vipps invoices them). */
  feeBalance: number;
  payouts: number;
}

export interface Closed {
  funds: VippsRow[];
  fees: VippsRow[];
  /** The payout made, or null when the balance is carried. */
  payout: { pspReference: string; amount: number } | null;
  next: Pick<LedgerState, "balance" | "feeBalance" | "payouts">;
}

/** A capture's fee: `basisPoints` of its amount, rounded to the øre. */
export const feeOf = (amount: number, basisPoints: number) =>
  Math.round((amount * basisPoints) / 10_000);

/** Closes `date` with its pending entries. */
export function closeDate(
  s: LedgerState,
  date: string,
  pending: readonly Pending[],
  time: string,
): Closed {
  const row = (entryType: string, reference: string, amount: number, psp: string, b: number) => ({
    pspReference: psp,
    time,
    ledgerDate: date,
    entryType,
    reference,
    currency: s.currency,
    amount,
    balanceBefore: b,
    balanceAfter: b + amount,
    recipientHandle: s.recipientHandle,
  });
  const funds: VippsRow[] = [];
  const fees: VippsRow[] = [];
  let balance = s.balance;
  let feeBalance = s.feeBalance;
  let retained = 0;
  for (const p of pending) {
    const amount = p.kind === "refund" ? -p.amount : p.amount;
    const type = p.kind === "entry" ? p.entryType : p.kind;
    funds.push(row(type, p.reference, amount, p.pspReference, balance));
    balance += amount;
    if (p.kind === "capture" && p.fee > 0) {
      fees.push(row("capture-fee", p.reference, -p.fee, p.pspReference, feeBalance));
      feeBalance -= p.fee;
      retained += p.fee;
    }
  }
  // Net settlement takes the date's fees from the funds; gross leaves them for the invoice.
  if (s.settlement === "net" && retained > 0) {
    const psp = `${s.ledgerId}-fees-${date}`;
    funds.push(row("fees-retained", "", -retained, psp, balance));
    balance -= retained;
    fees.push(row("fees-retained", "", retained, psp, feeBalance));
    feeBalance += retained;
  }
  if (balance <= 0)
    return { funds, fees, payout: null, next: { balance, feeBalance, payouts: s.payouts } };
  const payouts = s.payouts + 1;
  const pspReference = `${s.ledgerId}-${payouts}`;
  const amount = balance;
  funds.push(row("payout-scheduled", `Vipps MobilePay ${date}`, -amount, pspReference, balance));
  return {
    funds,
    fees,
    payout: { pspReference, amount },
    next: { balance: 0, feeBalance, payouts },
  };
}
