/**
 * What a Stripe payout's run reads before it is matched (`src/payouts/stripe/task.ts`): lines
 * read into its record replace the ones it had, and with them any confirmation of the operator's.
 */
import { describe, expect, it } from "vitest";
import type { PayoutRecord } from "../../../src/payouts/records";
import { applyLedgerPayout } from "../../../src/payouts/stripe/intake";
import { withRead } from "../../../src/payouts/stripe/task";
import { stripePayoutRead } from "../../fixtures/orders/payouts";

const AT = "2026-11-20T08:00:00.000Z";
const received = applyLedgerPayout(null, "stripe", stripePayoutRead(), AT).record;

describe("withRead", () => {
  it("lines read anew replace the record's, and clear the operator's confirmation of the old", () => {
    const confirmed: PayoutRecord = { ...received, confirmedBy: "operator", confirmedAt: AT };
    const lines = [
      { type: "adjustment" as const, orderId: null, refundId: null, amount: 100_000, fee: 0 },
    ];
    const read = withRead(confirmed, { kind: "lines", lines, read: 2 }, AT);
    expect(read.payout.lines).toEqual(lines);
    expect(read.stripe?.linesRead).toBe(2);
    expect([read.confirmedBy, read.confirmedAt]).toEqual([undefined, undefined]);
  });
});
