/**
 * @module
 * The search's part of the operator's face (`tenant/operator-sections.ts` composes it): what one
 * tenant keeps that `q` names. Reads its own tables only, no call; each kind at most a few hits.
 */
import { ok, type Outcome } from "../kernel/outcome";
import type { OrderRun } from "../orders/runs";
import type { TenantParts } from "../tenant/parts";
import type { TenantRecord } from "../tenant/registration";
import type { TenantHit } from "./hits";

/** Order runs one tenant answers a search with at most. */
const RUNS_FOUND = 10;

type SearchHost = Pick<TenantParts, "desk" | "payouts" | "log">;

export class SearchSection {
  readonly #t: SearchHost;

  constructor(t: SearchHost) {
    this.#t = t;
  }

  /** The tenant's records that `q` names: runs, payouts, logged calls, webhook deliveries. */
  search(_: TenantRecord, q: string): Outcome<TenantHit[]> {
    const now = Date.now();
    const hits: TenantHit[] = this.#t.desk.book.find(q, RUNS_FOUND).map((run) => runHit(run, q));
    for (const p of this.#t.payouts.book.find(q))
      hits.push({
        kind: "payout",
        id: p.payoutId,
        label: `${p.source} payout ${p.payoutId} (${p.state})`,
        page: `/payouts/${p.source}/${encodeURIComponent(p.payoutId)}`,
        at: p.updatedAt,
      });
    const call = this.#t.log.find(q, now);
    if (call) {
      const watcher = call.caller.kind === "watcher" ? "&caller=watcher" : "";
      hits.push({
        kind: "request",
        id: call.requestId,
        label: `${call.method} ${call.path}: ${call.status} (${call.caller.kind})`,
        page: `/requests?before=${call.seq + 1}${watcher}#${call.requestId}`,
        at: new Date(call.at).toISOString(),
      });
    }
    for (const d of this.#t.desk.book.findDelivery(q))
      hits.push({
        kind: "webhook",
        id: q,
        label: `${d.source} webhook delivery ${q}`,
        page: "#webhooks",
        at: new Date(d.seenAt).toISOString(),
      });
    return ok(hits);
  }
}

/** A run as a hit: the order, or its invoice or customer when that is what `q` named. */
function runHit(run: OrderRun, q: string): TenantHit {
  const number = run.order?.number ?? run.orderId;
  const buyer = run.order?.buyer;
  const who = buyer?.company ?? [buyer?.firstName, buyer?.lastName].filter(Boolean).join(" ");
  const base = {
    page: `/orders/${run.source}/${encodeURIComponent(run.orderId)}`,
    at: run.updatedAt,
  };
  if (run.invoiceNo !== null && String(run.invoiceNo) === q)
    return {
      kind: "invoice",
      id: q,
      label: `Invoice ${q} of ${run.source} order ${number} (${run.state})`,
      ...base,
    };
  if (run.orderId === q || number === q || number === `#${q}`)
    return {
      kind: "order",
      id: run.orderId,
      label: `${run.source} order ${number}${who ? ` for ${who}` : ""} (${run.state})`,
      ...base,
    };
  return {
    kind: "customer",
    id: String(run.customer?.number ?? run.customer?.id ?? who),
    label: `Customer ${who || "without a name"}${run.customer?.number ? ` (no. ${run.customer.number})` : ""}, on ${run.source} order ${number}`,
    ...base,
  };
}
