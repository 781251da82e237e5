/**
 * @module
 * What the console's pages of one tenant share, so that each route reads as what it shows: the
 * owner a tenant's page is drawn for (the session's CSRF token and the tenant its path names), that
 * tenant's operator face, the 409 of an action whose work is already under way; and the parts of
 * its pages of runs (orders, payouts): the list by state, one run's frame, its failure line and
 * its Retry form.
 */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { ConsoleApp } from "./app";
import type { Environment } from "../kernel/config";
import { unwrap, type Outcome } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { asOperator, tenantName, type OperatorStub, type TenantName } from "../kernel/stubs";
import { plainError } from "../ledger/run-display";
import { Csrf, Layout } from "./layout";
import { Table } from "./table";
import { StateFilter } from "./pages/state-filter";
import { tenantPath } from "./views";

/** A tenant as the console's paths name it (`/console/tenants/{environment}/{client}`). */
export interface TenantParams {
  environment: Environment;
  client: string;
}

/**
 * What every page of one tenant is drawn for: the tenant, by name and by path, and the session's
 * CSRF token for the page's forms.
 */
export interface TenantOwner extends TenantParams {
  csrf: string;
  tenant: TenantName;
}

/**
 * The owner of the tenant `p` names, spread into its page's props (`<Page {...owner} />`): the
 * pages take it whole, so no route lists its four fields again.
 */
export function tenantOwner(c: Context<ConsoleApp>, p: TenantParams): TenantOwner {
  return {
    csrf: c.var.console.csrf,
    tenant: tenantName(p.environment, p.client),
    environment: p.environment,
    client: p.client,
  };
}

/**
 * `call` on the operator's face of the tenant `p` names (a tenant never registered is its 404).
 * The session is the authority here, as the operator token is on `/admin`.
 */
export function asOperatorOf<T>(
  c: Context<ConsoleApp>,
  p: TenantParams,
  call: (face: OperatorStub) => T,
): Promise<Awaited<T>> {
  return asOperator(c.env, tenantName(p.environment, p.client), call);
}

/**
 * The value of an action that starts work (a Retry, a Confirm), or the 409 saying that nothing was
 * started when that work is already under way; any other failure is its problem, as `unwrap`'s.
 */
export function started<T>(done: Outcome<T>): T {
  if (!done.ok && done.error.reason === "conflict")
    throw new Problem("conflict", `${done.error.detail} Nothing was started.`);
  return unwrap(done);
}

/** Where a failed run stopped and why, as an alert; nothing for a run that has not failed. */
export function FailedAt(p: { error: { step: string; detail: string } | null | undefined }) {
  return p.error ? (
    <p
      class="error"
      role="alert"
    >{`Failed at step ${p.error.step}: ${plainError(p.error.detail)}`}</p>
  ) : null;
}

/** A run's Retry button, posting to `action` (the run's path and `/retry`). */
export function RetryForm(p: { csrf: string; action: string }) {
  return (
    <form method="post" action={p.action}>
      <Csrf token={p.csrf} />
      <button type="submit">Retry</button>
    </form>
  );
}

/**
 * A tenant's list filtered by state (its orders, its payouts): the filter's links, then the table,
 * or a line saying there are none of `what` (in the state picked) yet.
 */
export function ListByState(p: {
  filter: { base: string; states: readonly string[]; current: string | null };
  what: string;
  columns: string[];
  rows: Child[][];
}) {
  const { current } = p.filter;
  return (
    <>
      <StateFilter {...p.filter} />
      {p.rows.length === 0 ? (
        <p>{`No ${p.what}${current ? ` in state ${current}` : ""} yet.`}</p>
      ) : (
        <Table columns={p.columns} rows={p.rows} />
      )}
    </>
  );
}

/**
 * The frame of one run's page (an order's, a payout's): its title as the heading and the way back
 * to the tenant's list of them (`back`), then `children`. While the run is under way the page
 * reloads itself (a meta refresh: the CSP allows no script), so the operator sees it settle or fail
 * without pressing anything.
 */
export function RunFrame(p: {
  owner: TenantOwner;
  title: string;
  back: { rest: string; text: string };
  underWay: boolean;
  children?: Child;
}) {
  const { owner } = p;
  return (
    <Layout title={p.title} csrf={owner.csrf} refresh={p.underWay ? 3 : undefined}>
      <h1>{p.title}</h1>
      <p class="muted">
        <a href={tenantPath(owner.environment, owner.client, p.back.rest)}>{p.back.text}</a> of{" "}
        {owner.tenant}
      </p>
      {p.children}
    </Layout>
  );
}
