/**
 * @module
 * What a payout read from Stripe asks of its run before it can be matched, and how what the run
 * read goes into its record. Pure: the tenant's object (`payouts/tenant/payout-desk.ts`) calls
 * these in the same synchronous stretch as it reads and writes the record.
 *
 * A payout's lines are read once: a later attempt (a retry once a missing order has arrived)
 * matches the lines it has, finding their orders again through the payment references. Only a
 * payout whose lines were never read (no key, the key refused, Stripe not finished) reads them on
 * its next try.
 */
import { settlementAccountOf, type OrderMapping } from "../../ledger/mapping";
import type { LedgerRead, PayoutTask } from "../port";
import type { PayoutRecord } from "../records";

/** The read a received Stripe payout needs first, or null when it is ready to be matched. */
export function ledgerTask(r: PayoutRecord, mapping: OrderMapping): PayoutTask | null {
  if (r.state !== "received" || r.stripe === null) return null;
  const { payout } = r;
  if (r.stripe.notItemised !== null)
    return {
      kind: "balance",
      accountNo: settlementAccountOf(mapping, payout.orderSource),
      date: payout.arrivalDate,
      currency: payout.currency,
    };
  if (r.stripe.linesRead === null)
    return { kind: "read", amount: payout.amount, currency: payout.currency };
  return null;
}

/** `r` with what its run read of Stripe's ledger (a record not read from Stripe is unchanged). */
export function withRead(r: PayoutRecord, read: LedgerRead, at: string): PayoutRecord {
  if (r.stripe === null) return r;
  if (read.kind === "not-itemised")
    return {
      ...r,
      updatedAt: at,
      stripe: { ...r.stripe, notItemised: `not itemised by Stripe, which says: ${read.reason}` },
    };
  // Lines read anew are not the ones an operator may have confirmed (`rules.ts`).
  return {
    ...r,
    updatedAt: at,
    payout: { ...r.payout, lines: read.lines },
    stripe: { ...r.stripe, linesRead: read.read },
    confirmedBy: undefined,
    confirmedAt: undefined,
  };
}
