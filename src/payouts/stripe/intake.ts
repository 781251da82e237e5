/**
 * @module
 * How a payout read from the provider's own ledger (Stripe's `payout.paid` and
 * `payout.reconciliation_completed`) changes its record. Pure, like `intake.ts`, whose
 * `applyPayoutEvent` hands these events here; `payout.failed` is the same for every payout and
 * stays there.
 *
 * Stripe sends `payout.paid` when the money is due at the bank, and
 * `payout.reconciliation_completed` once the payout's balance transactions can be listed; for a
 * large payout the first may come while its ledger is still `in_progress`. So the payout's run
 * starts at whichever event says the ledger is `completed`, and the other is a duplicate: one run,
 * whatever the order the two arrive in. A manual or instant payout is never itemised by Stripe: it
 * is recorded with the reason and its run only reads the clearing account's balance, to show beside
 * it.
 */
import type { Source } from "../../orders/order";
import type { PayoutIntake } from "../intake";
import type { LedgerFacts, PayoutEvent } from "../payout";
import { again, blank, type PayoutRecord, type StripeFacts } from "../records";

/** Why the provider cannot itemise a payout; null when it can. */
export function notItemised(f: LedgerFacts): string | null {
  if (!f.automatic)
    return "a manual payout (automatic: false): Stripe cannot say which transactions it holds, so it is not booked line by line";
  if (f.method === "instant")
    return "an instant payout (method: instant): Stripe cannot say which transactions it holds, so it is not booked line by line";
  return null;
}

/** Applies `payout.paid` or `payout.reconciliation_completed` to its record (null: none yet). */
export function applyLedgerPayout(
  record: PayoutRecord | null,
  source: Source,
  event: Extract<PayoutEvent, { kind: "payout-read" }>,
  at: string,
): { record: PayoutRecord; intake: PayoutIntake; detail: string } {
  const { payout, facts } = event;
  const id = payout.id;
  const complete = facts.reconciliation === "completed";
  if (!record) {
    const stripe: StripeFacts = {
      automatic: facts.automatic,
      method: facts.method,
      reconciliation: facts.reconciliation,
      linesRead: null,
      notItemised: notItemised(facts),
      clearing: null,
    };
    const waiting = stripe.notItemised === null && !complete;
    return {
      record: {
        ...blank(source, payout, at),
        deliveries: 1,
        state: waiting ? "waiting" : "received",
        stripe,
      },
      intake: waiting ? "recorded" : "started",
      detail: waiting
        ? `Payout ${id} is recorded. Stripe has not finished its lines (reconciliation_status ${facts.reconciliation}): its reconciliation starts at payout.reconciliation_completed.`
        : stripe.notItemised
          ? `Payout ${id} is ${stripe.notItemised}. It is recorded with that reason and nothing of it is booked; the clearing account's balance is read to show beside it.`
          : `Payout ${id} is recorded; its lines are read from Stripe and reconciled.`,
    };
  }
  const r: PayoutRecord = { ...record, deliveries: record.deliveries + 1, updatedAt: at };
  if (record.state === "waiting" && complete && record.stripe) {
    const ready: PayoutRecord = {
      ...r,
      stripe: { ...record.stripe, reconciliation: "completed", linesRead: null },
    };
    return {
      // A run that found the lines unfinished left it waiting: the next attempt reads them.
      record: record.started ? again(ready, "received") : { ...ready, state: "received" },
      intake: "started",
      detail: `Payout ${id}: Stripe has finished its lines; they are read and reconciled.`,
    };
  }
  return {
    record: r,
    intake: "duplicate",
    detail: `Payout ${id} was received before (it is ${record.state}): nothing new was started.`,
  };
}
