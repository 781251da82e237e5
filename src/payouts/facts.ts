/** @module What the matcher knows of an order's run: what is settled, for how much, where, when. */
import { settlementAccountOf, type OrderMapping } from "../ledger/mapping";
import type { OrderRun, Settlement, StepRecord } from "../orders/runs";
import type { OrderFacts, Settled } from "./plan";

/**
 * An order's settlement as the matcher reads it. The one assumption: a run that recorded no
 * settlement is taken as settled where the mapping settles now, on its settle step's day.
 */
export function factsOf(run: OrderRun, mapping: OrderMapping): OrderFacts {
  const assumed = (steps: StepRecord[], name: string): Settlement | null => {
    const s = steps.find((x) => x.name === name && x.ok);
    return s
      ? { accountNo: settlementAccountOf(mapping, run.order ?? run), date: s.at.slice(0, 10) }
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
