/**
 * How Stripe's payout events change a payout's record (`payouts/stripe/intake.ts`): one run
 * whatever the order `payout.paid` and `payout.reconciliation_completed` arrive in; a payout whose
 * ledger Stripe has not finished waits; a manual or instant one is recorded with the reason.
 */
import { describe, expect, it } from "vitest";
import { applyLedgerPayout, notItemised } from "../../../src/payouts/stripe/intake";
import { stripePayoutRead } from "../../fixtures/orders/payouts";

const AT = "2026-11-20T08:00:00.000Z";
const event = stripePayoutRead;

describe("Stripe payout intake", () => {
  it("payout.paid with the ledger in progress waits; reconciliation_completed starts it; paid again is a duplicate", () => {
    const paid = applyLedgerPayout(null, "stripe", event({ reconciliation: "in_progress" }), AT);
    expect([paid.intake, paid.record.state]).toEqual(["recorded", "waiting"]);
    const done = applyLedgerPayout(paid.record, "stripe", event(), AT);
    expect([done.intake, done.record.state, done.record.deliveries]).toEqual([
      "started",
      "received",
      2,
    ]);
    const again = applyLedgerPayout(done.record, "stripe", event(), AT);
    expect([again.intake, again.record.state]).toEqual(["duplicate", "received"]);
  });

  it("reconciliation_completed first starts it; the payout.paid after it is a duplicate", () => {
    const done = applyLedgerPayout(null, "stripe", event(), AT);
    expect([done.intake, done.record.state]).toEqual(["started", "received"]);
    const paid = applyLedgerPayout(done.record, "stripe", event(), AT);
    expect(paid.intake).toBe("duplicate");
  });

  it("a run that found the ledger unfinished left the payout waiting: the completion starts a new attempt", () => {
    const paid = applyLedgerPayout(null, "stripe", event({ reconciliation: "in_progress" }), AT);
    const ran = { ...paid.record, started: true };
    const done = applyLedgerPayout(ran, "stripe", event(), AT);
    expect(done.record).toMatchObject({ state: "received", attempt: 2, started: false });
  });

  it("a manual or an instant payout is started (to read the clearing balance) with the reason, never waiting", () => {
    const manual = applyLedgerPayout(
      null,
      "stripe",
      event({ automatic: false, reconciliation: "not_applicable" }),
      AT,
    );
    expect(manual.intake).toBe("started");
    expect(manual.record.stripe?.notItemised).toMatch(/^a manual payout/);
    expect(manual.detail).toMatch(/nothing of it is booked/);
    expect(
      notItemised({ automatic: true, method: "instant", reconciliation: "completed" }),
    ).toMatch(/^an instant payout/);
    expect(notItemised({ automatic: true, method: "standard", reconciliation: "completed" })).toBe(
      null,
    );
  });
});
