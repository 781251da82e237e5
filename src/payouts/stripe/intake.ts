/**
 * @module
 * How Stripe's `payout.paid` and `payout.reconciliation_completed` change a payout's record. The
 * run starts at whichever says the ledger is `completed`, the other is a duplicate: one run,
 * whatever their order. Pure. See docs/payouts.md.
 */
import type { PayoutIntake } from "../intake";
import type { LedgerFacts, PayoutEvent, PayoutSource } from "../payout";
import { again, blank, type PayoutRecord, type StripeFacts } from "../records";

/** Why Stripe cannot itemise a payout; null when it can. */
export function notItemised(f: LedgerFacts): string | null {
  if (!f.automatic)
    return "a manual payout (automatic: false): Stripe cannot say which transactions it holds, so it is not booked line by line";
  if (f.method === "instant")
    return "an instant payout (method: instant): Stripe cannot say which transactions it holds, so it is not booked line by line";
  return null;
}

export function applyLedgerPayout(
  record: PayoutRecord | null,
  source: PayoutSource,
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
      // A run that found the lines unfinished left it waiting: a new attempt reads them.
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
