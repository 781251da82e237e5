/**
 * What the matcher knows of an order's run (`src/payouts/facts.ts`): the settlement the run
 * recorded, the order's and each refund's; and for a run settled before runs recorded it, the one
 * assumption: the mapping's account for its source now, on its settle step's day.
 */
import { describe, expect, it } from "vitest";
import { resolveMapping } from "../../src/ledger/mapping";
import { applyEvent, type OrderRun } from "../../src/orders/runs";
import { factsOf } from "../../src/payouts/facts";
import { COFFEE_AT, coffeeOrder } from "../fixtures/orders/coffee";

const paid = (): OrderRun =>
  applyEvent(null, "shopify", { kind: "paid", order: coffeeOrder("5001") }, COFFEE_AT).run;
const step = (name: string, at: string) => ({ name, at, ok: true, result: {} });
/** The run's one refund, for a test to change. */
const firstRefund = (run: OrderRun) => {
  const x = run.refunds[0];
  if (!x) throw new Error("no refund");
  return x;
};
const refund = {
  kind: "refunded" as const,
  orderId: "5001",
  refund: { id: "r1", at: COFFEE_AT, lines: [], total: 2_500 },
};

describe("factsOf", () => {
  it("an order not settled has no settlement; a refund not credited neither", () => {
    const run = applyEvent(paid(), "shopify", refund, COFFEE_AT).run;
    expect(factsOf(run, resolveMapping())).toEqual({ settled: null, refunds: { r1: null } });
  });

  it("takes the settlements the run recorded", () => {
    const run = applyEvent(paid(), "shopify", refund, COFFEE_AT).run;
    run.state = "credited";
    run.settlement = { accountNo: 1901, date: "2026-03-01" };
    run.refunds[0] = {
      ...firstRefund(run),
      state: "credited",
      settlement: { accountNo: 1901, date: "2026-03-02" },
    };
    expect(factsOf(run, resolveMapping())).toEqual({
      settled: {
        currency: "NOK",
        total: 12_500,
        settlement: { accountNo: 1901, date: "2026-03-01" },
      },
      refunds: {
        r1: { currency: "NOK", total: 2_500, settlement: { accountNo: 1901, date: "2026-03-02" } },
      },
    });
  });

  it("a run settled before it recorded where: the mapping's account for its source now, its settle step's day", () => {
    const run = applyEvent(paid(), "shopify", refund, COFFEE_AT).run;
    run.state = "credited";
    run.steps = [step("settle", "2026-02-27T10:00:00.000Z")];
    run.refunds[0] = {
      ...firstRefund(run),
      state: "credited",
      steps: [step("settle refund", "2026-02-28T10:00:00.000Z")],
    };
    const legacy = resolveMapping({}, { settlementAccount: 1920, clearingBy: "source" });
    expect(factsOf(run, legacy)).toMatchObject({
      settled: { settlement: { accountNo: 1920, date: "2026-02-27" } },
      refunds: { r1: { settlement: { accountNo: 1920, date: "2026-02-28" } } },
    });
    const bySource = resolveMapping({}, { settlementAccount: null, clearingBy: "source" });
    expect(factsOf(run, bySource)).toMatchObject({
      settled: { settlement: { accountNo: 1901 } },
    });
    // A new tenant's default: the provider's account; an order that names no method is "other"'s.
    expect(factsOf(run, resolveMapping())).toMatchObject({
      settled: { settlement: { accountNo: 1910 } },
    });
  });
});
