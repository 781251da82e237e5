/**
 * @module
 * What the matcher (`match.ts`) knows of an order's run: whether the order and each refund is
 * settled, for how much, and where and on which day the money waits. Pure, over the run record the
 * order book keeps.
 */
import { settlementAccountOf, type OrderMapping } from "../ledger/mapping";
import type { OrderRun, Settlement, StepRecord } from "../orders/runs";
import type { OrderFacts, Settled } from "./plan";

/**
 * An order's settlement as the matcher reads it. A run settled before runs recorded where is taken
 * as settled where the mapping settles its source now, on the day of its settle step: the one
 * assumption made, for runs of the weeks around the upgrade (docs/payouts.md).
 */
export function factsOf(run: OrderRun, mapping: OrderMapping): OrderFacts {
  /** Where a run of before settled, from its settle step: the mapping's account, that day. */
  const assumed = (steps: StepRecord[], name: string): Settlement | null => {
    const s = steps.find((x) => x.name === name && x.ok);
    return s
      ? { accountNo: settlementAccountOf(mapping, run.source), date: s.at.slice(0, 10) }
      : null;
  };
  const settled = (settlement: Settlement | null, total: number): Settled | null =>
    settlement && run.order ? { currency: run.order.currency, total, settlement } : null;
  const own =
    run.settlement ??
    (run.state === "settled" || run.state === "credited" ? assumed(run.steps, "settle") : null);
  const refunds: Record<string, Settled | null> = {};
  for (const x of run.refunds) {
    const where =
      x.settlement ?? (x.state === "credited" ? assumed(x.steps, "settle refund") : null);
    refunds[x.refund.id] = settled(where, x.refund.total);
  }
  return { settled: run.order ? settled(own, run.order.total) : null, refunds };
}
