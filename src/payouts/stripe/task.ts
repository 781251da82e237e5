/**
 * @module
 * What a Stripe payout asks of its run before it is matched, and how what was read goes into its
 * record. Lines are read once; a later attempt matches the lines it has. Pure.
 */
import { settlementAccountOf, type OrderMapping } from "../../ledger/mapping";
import type { LedgerRead, PayoutTask } from "../port";
import type { PayoutRecord } from "../records";

/** The read a received Stripe payout needs first, or null when it is ready to match. */
export function ledgerTask(r: PayoutRecord, mapping: OrderMapping): PayoutTask | null {
  if (r.state !== "received" || r.stripe === null) return null;
  const { payout } = r;
  if (r.stripe.notItemised !== null)
    return {
      kind: "balance",
      accountNo: settlementAccountOf(mapping, { source: payout.orderSource }),
      date: payout.arrivalDate,
      currency: payout.currency,
    };
  if (r.stripe.linesRead === null)
    return { kind: "read", amount: payout.amount, currency: payout.currency };
  return null;
}

/** `r` with what its run read of Stripe's ledger. */
export function withRead(r: PayoutRecord, read: LedgerRead, at: string): PayoutRecord {
  if (r.stripe === null) return r;
  if (read.kind === "not-itemised")
    return {
      ...r,
      updatedAt: at,
      stripe: { ...r.stripe, notItemised: `not itemised by Stripe, which says: ${read.reason}` },
    };
  // Lines read anew are not the ones an operator may have confirmed.
  return {
    ...r,
    updatedAt: at,
    payout: { ...r.payout, lines: read.lines },
    stripe: { ...r.stripe, linesRead: read.read },
    confirmedBy: undefined,
    confirmedAt: undefined,
  };
}
