/**
 * @module
 * A tenant's order runs, and one run with its steps, its error, a Retry button when it failed, and
 * its refunds with their credit notes.
 */
import { orderNumber, plainError, underWay } from "../ledger/run-display";
import { orderPath, tenantPath, when } from "../console/views";
import type { OrderRunView } from "./run-view";
import { RunState } from "./runs";
import { Layout } from "../console/layout";
import { Steps } from "../ledger/console-steps";
import { FailedAt, ListByState, RetryForm, RunFrame } from "../console/tenant-kit";
import type { TenantOwner } from "../console/tenant-kit";

/** A run's total with its currency, or a dash before the order's total is known. */
const total = (r: OrderRunView) => (r.total ? `${r.total} ${r.currency ?? ""}` : "–");

/** The runs page, optionally of one state. */
export function OrdersPage(p: TenantOwner & { runs: OrderRunView[]; state: RunState | null }) {
  const base = tenantPath(p.environment, p.client, "/orders");
  return (
    <Layout title={`Orders of ${p.tenant}`} csrf={p.csrf}>
      <h1>Orders</h1>
      <p class="muted">
        Shop orders of <a href={tenantPath(p.environment, p.client)}>{p.tenant}</a>, newest change
        first.
      </p>
      <ListByState
        filter={{ base, states: RunState.options, current: p.state }}
        what="orders"
        columns={["Order", "Number", "Source", "State", "Total", "Updated", "Error"]}
        rows={p.runs.map((r) => [
          <a href={orderPath(p.environment, p.client, r.source, r.orderId)}>{r.orderId}</a>,
          orderNumber(r.number),
          r.source,
          r.state,
          total(r),
          when(r.updatedAt),
          r.error ? `${r.error.step}: ${plainError(r.error.detail)}` : "–",
        ])}
      />
    </Layout>
  );
}

/** One order's page. */
export function OrderPage(p: TenantOwner & { run: OrderRunView }) {
  const r = p.run;
  const failed = r.state === "failed" || r.refunds.some((x) => x.state === "failed");
  return (
    <RunFrame
      owner={p}
      title={`Order ${r.orderId}`}
      back={{ rest: "/orders", text: "Orders" }}
      underWay={underWay(r)}
    >
      <dl>
        <dt>State</dt>
        <dd>{underWay(r) ? `${r.state} (this page refreshes itself)` : r.state}</dd>
        <dt>Number</dt>
        <dd>{orderNumber(r.number)}</dd>
        <dt>Source</dt>
        <dd>{r.source}</dd>
        <dt>Total</dt>
        <dd>{total(r)}</dd>
        <dt>Paid with</dt>
        <dd>{paidWith(r)}</dd>
        <dt>Sales order</dt>
        <dd>{r.salesOrderNo ?? "–"}</dd>
        <dt>Invoice</dt>
        <dd>{r.invoiceNo ?? "–"}</dd>
        <dt>Attempt</dt>
        <dd>{r.attempt}</dd>
        <dt>Received</dt>
        <dd>{when(r.receivedAt)}</dd>
        <dt>Updated</dt>
        <dd>{when(r.updatedAt)}</dd>
      </dl>
      <FailedAt error={r.error} />
      {failed ? (
        <RetryForm
          csrf={p.csrf}
          action={`${orderPath(p.environment, p.client, r.source, r.orderId)}/retry`}
        />
      ) : null}
      <h2>Steps</h2>
      <Steps steps={r.steps} attempt={r.attempt} failed={r.error} />
      <h2>Refunds</h2>
      {r.refunds.length === 0 ? (
        <p>No refunds.</p>
      ) : (
        r.refunds.map((x) => (
          <section aria-label={`Refund ${x.id}`}>
            <h3>{`Refund ${x.id}`}</h3>
            <dl>
              <dt>State</dt>
              <dd>{x.state}</dd>
              <dt>Total</dt>
              <dd>{x.total}</dd>
              <dt>Credit note</dt>
              <dd>{x.creditNoteNo ?? "–"}</dd>
            </dl>
            {x.error ? <p class="error">{plainError(x.error)}</p> : null}
            <Steps steps={x.steps} attempt={1} failed={null} />
          </section>
        ))
      )}
    </RunFrame>
  );
}

/** How the order was paid and, once settled, whose money it is and where it waits. */
function paidWith(r: OrderRunView): string {
  const p = r.payment;
  if (!p) return "–";
  const method =
    p.title && p.title !== p.method ? `${p.method} (${p.title})` : (p.method ?? "not said");
  return p.provider === null || p.clearingAccount === null
    ? method
    : `${method}: paid out by ${p.provider}, waits in ${p.clearingAccount}`;
}
