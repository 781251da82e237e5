/**
 * A payout's record (`src/payouts/intake.ts`): how each event changes it. The same payout
 * twice is a duplicate; other lines replace it only while nothing of it is posted, and clear the
 * operator's confirmation of the lines they replace; payout.failed cancels a payout whose run never
 * started and reverses any other once its run has ended.
 */
import { describe, expect, it } from "vitest";
import type { Payout } from "../../src/payouts/payout";
import { afterRun, applyPayoutEvent, needsStart } from "../../src/payouts/intake";
import type { PayoutRecord, PayoutState } from "../../src/payouts/records";

const AT = "2026-03-04T06:00:00.000Z";
const LATER = "2026-03-05T06:00:00.000Z";
const P: Payout = {
  id: "po_1",
  provider: "stripe",
  currency: "NOK",
  amount: 9_500,
  arrivalDate: "2026-03-04",
  orderSource: "standard",
  lines: [{ type: "charge", orderId: "o-1", refundId: null, amount: 10_000, fee: 500 }],
};
const paid = (payout = P) => ({ kind: "payout-paid" as const, payout });
const failed = { kind: "payout-failed" as const, payoutId: "po_1", at: LATER, reason: "closed" };
const first = () => {
  const r = applyPayoutEvent(null, "standard", paid(), AT).record;
  if (!r) throw new Error("no record");
  return r;
};
const inState = (state: PayoutState, started = true): PayoutRecord => ({
  ...first(),
  state,
  started,
});

describe("applyPayoutEvent: payout.paid", () => {
  it("records a new payout, its run to start", () => {
    const r = applyPayoutEvent(null, "standard", paid(), AT);
    expect(r.intake).toBe("started");
    expect(r.record).toMatchObject({
      state: "received",
      attempt: 1,
      started: false,
      deliveries: 1,
    });
    expect(r.record && needsStart(r.record)).toBe(true);
  });

  it("the same payout again is a duplicate, counted", () => {
    const r = applyPayoutEvent(inState("booked"), "standard", paid(), LATER);
    expect(r.intake).toBe("duplicate");
    expect(r.record).toMatchObject({ state: "booked", deliveries: 2, attempt: 1 });
  });

  it("other lines replace an unmatched or failed payout as a new attempt, and one not started yet in place", () => {
    const other = paid({ ...P, amount: 9_000 });
    for (const state of ["unmatched", "failed"] as const) {
      const r = applyPayoutEvent(inState(state), "standard", other, LATER);
      expect(r.intake).toBe("started");
      expect(r.record).toMatchObject({ state: "received", attempt: 2, started: false });
      expect(r.record?.payout.amount).toBe(9_000);
    }
    const waiting = applyPayoutEvent(inState("received", false), "standard", other, LATER);
    expect(waiting.record).toMatchObject({ state: "received", attempt: 1 });
  });

  it("other lines clear the operator's confirmation; the same lines again keep it", () => {
    const confirmed: PayoutRecord = {
      ...inState("unmatched"),
      confirmedBy: "operator",
      confirmedAt: AT,
    };
    const replaced = applyPayoutEvent(confirmed, "standard", paid({ ...P, amount: 1 }), LATER);
    expect(replaced.intake).toBe("started");
    expect(replaced.record?.confirmedBy).toBeUndefined();
    expect(replaced.record?.confirmedAt).toBeUndefined();
    const same = applyPayoutEvent(confirmed, "standard", paid(), LATER);
    expect(same.intake).toBe("duplicate");
    expect(same.record).toMatchObject({ confirmedBy: "operator", confirmedAt: AT });
  });

  it("other lines are not taken once anything may be posted", () => {
    for (const state of ["running", "booked", "reversing", "reversed", "cancelled"] as const) {
      const r = applyPayoutEvent(inState(state), "standard", paid({ ...P, amount: 1 }), LATER);
      expect([r.intake, r.record?.payout.amount, r.record?.state]).toEqual([
        "ignored",
        9_500,
        state,
      ]);
    }
  });
});

describe("applyPayoutEvent: payout.failed", () => {
  it("cancels a payout whose run never started", () => {
    const r = applyPayoutEvent(inState("received", false), "standard", failed, LATER);
    expect(r.intake).toBe("cancelled");
    expect(r.record).toMatchObject({ state: "cancelled", failed: { at: LATER, reason: "closed" } });
  });

  it("reverses a booked (or unmatched, or failed) payout: a new attempt", () => {
    for (const state of ["booked", "unmatched", "failed"] as const) {
      const r = applyPayoutEvent(inState(state), "standard", failed, LATER);
      expect(r.record).toMatchObject({ state: "reversing", attempt: 2, started: false });
    }
  });

  it("waits for a run under way, which then turns it to reversing", () => {
    const r = applyPayoutEvent(inState("running"), "standard", failed, LATER).record;
    expect(r).toMatchObject({ state: "running", attempt: 1, failed: { at: LATER } });
    if (!r) throw new Error("no record");
    expect(afterRun({ ...r, state: "booked" })).toMatchObject({ state: "reversing", attempt: 2 });
    expect(afterRun({ ...r, state: "running" })).toMatchObject({ state: "running", attempt: 1 });
  });

  it("a second failure is a duplicate; a failure of an unknown payout is ignored", () => {
    const once = applyPayoutEvent(inState("booked"), "standard", failed, LATER).record;
    expect(once && applyPayoutEvent(once, "standard", failed, LATER).intake).toBe("duplicate");
    expect(applyPayoutEvent(null, "standard", failed, LATER)).toMatchObject({
      record: null,
      intake: "ignored",
    });
  });

  it("a booked payout without a failure stays as it is after its run", () => {
    expect(afterRun(inState("booked"))).toMatchObject({ state: "booked", attempt: 1 });
  });
});
