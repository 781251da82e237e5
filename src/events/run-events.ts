/**
 * @module
 * The order runs' own events, from what a step reports (pure), with the run as its route shows
 * it. Keyed by the order (and refund), a failure by its attempt too: a retried step announces
 * nothing twice, a retried run can fail again.
 */
import type { OrderRunView } from "../orders/run-view";
import type { RunParams, RunPatch } from "../orders/runs";
import { eventKey } from "./keys";
import type { EventDraft, EventType } from "./types";

const ORDER_EVENTS: Partial<Record<string, EventType>> = {
  invoiced: "order.invoiced",
  settled: "order.settled",
  failed: "order.failed",
  cancelled: "order.cancelled",
};
const REFUND_EVENTS: Partial<Record<string, EventType>> = {
  credited: "refund.credited",
  failed: "refund.failed",
};

export function runEventTypes(patch: RunPatch, refundId: string | null): EventType[] {
  const order = patch.order?.state && ORDER_EVENTS[patch.order.state];
  const refund = refundId !== null && patch.refund?.state && REFUND_EVENTS[patch.refund.state];
  return [order, refund].filter((t): t is EventType => typeof t === "string");
}

/** The events of `types` for the run `view` after the report, in attempt `attempt`, at `at`. */
export function runDrafts(
  types: readonly EventType[],
  view: OrderRunView,
  p: Pick<RunParams, "source" | "orderId" | "refundId">,
  attempt: number,
  at: number,
): EventDraft[] {
  const order = `${p.source}:${p.orderId}`;
  return types.map((type) => {
    const refund = type.startsWith("refund.");
    const subject = refund ? `${order}:${p.refundId ?? ""}` : order;
    const failed = type.endsWith(".failed");
    return {
      type,
      at,
      data: refund ? { ...view, refundId: p.refundId } : { ...view },
      key: failed ? eventKey(type, subject, `attempt ${attempt}`) : eventKey(type, subject),
    };
  });
}
