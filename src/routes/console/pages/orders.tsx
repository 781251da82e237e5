/**
 * @module
 * A tenant's order runs, and one run with its steps, its error, a Retry button when it failed, and
 * its refunds with their credit notes.
 */
import type { Environment } from "../../../lib/config";
import { orderPath, stepCalls, tenantPath, when } from "../../../lib/console/views";
import { RunState, type OrderRunView } from "../../../lib/orders/runs";
import { Csrf, Layout } from "../layout";

interface Owner {
  csrf: string;
  tenant: string;
  environment: Environment;
  client: string;
}

/** The runs page, optionally of one state. */
export function OrdersPage(p: Owner & { runs: OrderRunView[]; state: RunState | null }) {
  const base = tenantPath(p.environment, p.client, "/orders");
  return (
    <Layout title={`Orders of ${p.tenant}`} csrf={p.csrf}>
      <h1>Orders</h1>
      <p class="muted">
        Shop orders of <a href={tenantPath(p.environment, p.client)}>{p.tenant}</a>, newest change first.
      </p>
      <nav aria-label="Filter by state">
        <p>
          Show: <a href={base} aria-current={p.state === null ? "page" : undefined}>all</a>
          {RunState.options.map((s) => (
            <>
              {" · "}
              <a href={`${base}?state=${s}`} aria-current={p.state === s ? "page" : undefined}>{s}</a>
            </>
          ))}
        </p>
      </nav>
      {p.runs.length === 0 ? (
        <p>No orders{p.state ? ` in state ${p.state}` : ""} yet.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Order</th>
                <th scope="col">State</th>
                <th scope="col">Total</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {p.runs.map((r) => (
                <tr>
                  <td>{r.source}</td>
                  <td>
                    <a href={orderPath(p.environment, p.client, r.source, r.orderId)}>{r.orderId}</a>
                  </td>
                  <td>{r.state}</td>
                  <td>{r.total ? `${r.total} ${r.currency ?? ""}` : "–"}</td>
                  <td>{when(r.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Layout>
  );
}

/** One order's page. */
export function OrderPage(p: Owner & { run: OrderRunView }) {
  const r = p.run;
  const failed = r.state === "failed" || r.refunds.some((x) => x.state === "failed");
  return (
    <Layout title={`Order ${r.orderId}`} csrf={p.csrf}>
      <h1>{`Order ${r.orderId}`}</h1>
      <p class="muted">
        <a href={tenantPath(p.environment, p.client, "/orders")}>Orders</a> of {p.tenant}
      </p>
      <dl>
        <dt>State</dt>
        <dd>{r.state}</dd>
        <dt>Source</dt>
        <dd>{r.source}</dd>
        <dt>Total</dt>
        <dd>{r.total ? `${r.total} ${r.currency ?? ""}` : "–"}</dd>
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
      {r.error ? <p class="error" role="alert">{`Failed at step ${r.error.step}: ${r.error.detail}`}</p> : null}
      {failed ? (
        <form method="post" action={`${orderPath(p.environment, p.client, r.source, r.orderId)}/retry`}>
          <Csrf token={p.csrf} />
          <button type="submit">Retry</button>
        </form>
      ) : null}
      <h2>Steps</h2>
      <Steps steps={r.steps} />
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
            {x.error ? <p class="error">{x.error}</p> : null}
            <Steps steps={x.steps} />
          </section>
        ))
      )}
    </Layout>
  );
}

/** A run's steps. */
function Steps(p: { steps: OrderRunView["steps"] }) {
  if (p.steps.length === 0) return <p>No steps finished yet.</p>;
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Upstream calls</th>
            <th scope="col">Time</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {p.steps.map((s) => (
            <tr>
              <td>{s.name}</td>
              <td>{stepCalls(s.result)}</td>
              <td>{when(s.at)}</td>
              <td>{s.ok ? "done" : "failed"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
