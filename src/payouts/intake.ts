/**
 * @module
 * How each payout event changes a payout's record. Pure: the tenant's object stores the result in
 * the synchronous stretch it read the record in, so two deliveries never start two runs.
 */
import type { PayoutEvent, PayoutSource } from "./payout";
import { again, blank, type PayoutRecord, type PayoutState } from "./records";
import { applyLedgerPayout } from "./stripe/intake";

/** What a delivery did. `recorded`: kept, its run to start on a later event (Stripe's). */
export type PayoutIntake = "started" | "recorded" | "duplicate" | "cancelled" | "ignored";

/** States a `payout.paid` with other lines may replace the payout in: nothing is posted. */
const REPLACEABLE: readonly PayoutState[] = ["received", "unmatched", "failed"];

/** States a run left with nothing posted or to finish: `payout.failed` cancels them. */
const CANCELLABLE: readonly PayoutState[] = ["waiting", "needs-key", "not-itemised"];

/** Applies one event to its record: the new record (null: nothing to store), what happened. */
export function applyPayoutEvent(
  record: PayoutRecord | null,
  source: PayoutSource,
  event: PayoutEvent,
  at: string,
): { record: PayoutRecord | null; intake: PayoutIntake; detail: string } {
  if (event.kind === "payout-read") return applyLedgerPayout(record, source, event, at);
  if (event.kind === "payout-paid") {
    const p = event.payout;
    if (!record)
      return {
        record: { ...blank(source, p, at), deliveries: 1 },
        intake: "started",
        detail: `Payout ${p.id} is recorded and its reconciliation started.`,
      };
    const r = { ...record, deliveries: record.deliveries + 1, updatedAt: at };
    if (JSON.stringify(record.payout) === JSON.stringify(p))
      return {
        record: r,
        intake: "duplicate",
        detail: `Payout ${p.id} was received before: nothing new was started.`,
      };
    // Other lines: the sender corrected the payout, taken while nothing of it is posted.
    if (r.failed || !REPLACEABLE.includes(r.state))
      return {
        record: r,
        intake: "ignored",
        detail: `Payout ${p.id} is ${r.state}: a payout that differs from it is not taken. Send payout.failed to reverse a booked payout, and its replacement under a new id.`,
      };
    // The operator's confirmation was of the replaced lines: the new ones need their own.
    const replaced = {
      ...r,
      payout: p,
      issues: [],
      issueCount: 0,
      confirmedBy: undefined,
      confirmedAt: undefined,
    };
    return {
      record:
        record.state === "received" && !record.started ? replaced : again(replaced, "received"),
      intake: "started",
      detail: `Payout ${p.id} is replaced by this delivery and reconciled again.`,
    };
  }
  if (!record)
    return {
      record: null,
      intake: "ignored",
      detail: `No payout ${event.payoutId} has reached this tenant; nothing to reverse.`,
    };
  const r = {
    ...record,
    deliveries: record.deliveries + 1,
    updatedAt: at,
    failed: record.failed ?? { at: event.at, reason: event.reason },
  };
  if (record.failed)
    return { record: r, intake: "duplicate", detail: `Payout ${record.payoutId} failed before.` };
  // Nothing can have been posted: the run never started, or ended having posted nothing.
  if ((record.state === "received" && !record.started) || CANCELLABLE.includes(record.state))
    return {
      record: { ...r, state: "cancelled" },
      intake: "cancelled",
      detail: `Payout ${record.payoutId} is cancelled; nothing was booked.`,
    };
  // A run under way finishes first; its report then turns the payout to reversing (`afterRun`).
  if (record.state === "running" || record.state === "reversing")
    return {
      record: r,
      intake: "started",
      detail: `Payout ${record.payoutId} failed: its voucher is reversed once the run under way ends.`,
    };
  return {
    record: again(r, "reversing"),
    intake: "started",
    detail: `Payout ${record.payoutId} failed: its voucher, if any, is being reversed.`,
  };
}

/** After a run's end: a payout that failed meanwhile is reversed (a new attempt). */
export function afterRun(r: PayoutRecord): PayoutRecord {
  const ended = r.state === "booked" || r.state === "unmatched" || r.state === "failed";
  return r.failed && ended ? again(r, "reversing") : r;
}

export const needsStart = (r: PayoutRecord) =>
  !r.started && (r.state === "received" || r.state === "reversing");
