/**
 * @module
 * The order runs' own events, from what a step reports (pure: no I/O). A report that moves the
 * order to `invoiced`, `settled`, `failed` or `cancelled`, or a refund to `credited` or `failed`,
 * is announced as `order.*` or `refund.*` with the run as `GET /orders/{source}/{orderId}` shows it
 * (a refund's event also names its `refundId`). Each is keyed by the order (and refund), and a
 * failure by its attempt too, so a step the engine retries announces nothing twice, while a failed
 * run the operator retries can fail (and be announced) again.
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

/** The event types a report announces. */
export function runEventTypes(patch: RunPatch, refundId: string | null): EventType[] {
  const order = patch.order?.state && ORDER_EVENTS[patch.order.state];
  const refund = refundId !== null && patch.refund?.state && REFUND_EVENTS[patch.refund.state];
  return [order, refund].filter((t): t is EventType => typeof t === "string");
}

/**
 * The events of `types` for the run `view` (as it stands after the report), by the run `p` in its
 * attempt `attempt`, at `at` (epoch ms).
 */
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
