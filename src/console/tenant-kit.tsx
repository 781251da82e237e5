/**
 * @module What the console's pages of one tenant share, so each route reads as what it shows: the
 * page's owner, the tenant's operator face, the 409 of work under way, and the parts of run pages.
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

export interface TenantParams {
  environment: Environment;
  client: string;
}

/** What every page of one tenant is drawn for: the tenant, by name and path, and the CSRF token. */
export interface TenantOwner extends TenantParams {
  csrf: string;
  tenant: TenantName;
}

/** The owner of the tenant `p` names, spread into its page's props: `<Page {...owner} />`. */
export function tenantOwner(c: Context<ConsoleApp>, p: TenantParams): TenantOwner {
  return {
    csrf: c.var.console.csrf,
    tenant: tenantName(p.environment, p.client),
    environment: p.environment,
    client: p.client,
  };
}

/** `call` on the operator's face of `p`'s tenant: the session is the authority, as the token is. */
export function asOperatorOf<T>(
  c: Context<ConsoleApp>,
  p: TenantParams,
  call: (face: OperatorStub) => T,
): Promise<Awaited<T>> {
  return asOperator(c.env, tenantName(p.environment, p.client), call);
}

/** The value of an action that starts work, or a 409 saying nothing started as it is under way. */
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

export function RetryForm(p: { csrf: string; action: string }) {
  return (
    <form method="post" action={p.action}>
      <Csrf token={p.csrf} />
      <button type="submit">Retry</button>
    </form>
  );
}

/** A tenant's list by state (orders, payouts): the filter's links, then the table or "none yet". */
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
 * The frame of one run's page. While the run is under way the page reloads itself (a meta refresh:
 * the CSP allows no script), so the operator sees it settle or fail.
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
