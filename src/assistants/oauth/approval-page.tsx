/**
 * @module
 * The approval page of an assistant's connection, for a gateway key's holder and for the operator:
 * the client's name (verified or only claimed), where its tokens go, the endpoint, and the scope
 * and lifetime to pick. Everything from the client is escaped by JSX. No script.
 */
import type { Child } from "hono/jsx";
import type { ApprovalFacts } from "./approve";
import { DEFAULT_LIFETIME, GRANT_LIFETIMES, Lifetime } from "./grants";
import { allows, Scope } from "../mcp/principal";
import { Layout } from "../../console/layout";

/** What each scope lets an assistant do, in the person's words. */
const SCOPE_WORDS: Record<Scope, string> = {
  read: "Read the books: find any operation of the API and read any record. No writes.",
  draft:
    "Also prepare drafts, each shown to you and confirmed in the assistant: customers, suppliers, products, sales orders, journal entry vouchers. Never sends, posts or deletes.",
  write:
    "Also every other write, each shown to you and confirmed in the assistant: invoicing and sending, posting, deleting.",
};

/** The facts of the request, as both forms show them. */
function Facts(p: { facts: ApprovalFacts; origin: string }) {
  const c = p.facts.consent;
  return (
    <>
      {c.clientDomain ? (
        <p>
          Published by <strong>{c.clientDomain}</strong>: its client ID is a document on that
          domain.
        </p>
      ) : (
        <p class="fresh">
          This app registered itself: the name “{c.clientName}” is its own claim, not verified.
        </p>
      )}
      <dl>
        <dt>Access goes to</dt>
        <dd>
          <strong>{c.redirectHost}</strong>
        </dd>
        <dt>Endpoint</dt>
        <dd>
          <code>{`${p.origin}${p.facts.endpoint}`}</code> (at most {p.facts.ceiling})
        </dd>
      </dl>
      {c.redirectIsLoopback ? (
        <p class="error" role="alert">
          This sends access to an app on this computer. Approve only if you just started connecting
          from it yourself.
        </p>
      ) : null}
    </>
  );
}

/** The scope and lifetime choices. */
function Choices(p: { facts: ApprovalFacts }) {
  return (
    <>
      <fieldset>
        <legend>What may it do?</legend>
        {Scope.options
          .filter((s) => allows(p.facts.ceiling, s))
          .map((s) => (
            <p>
              <input
                type="radio"
                id={`scope-${s}`}
                name="scope"
                value={s}
                checked={s === p.facts.suggested}
              />
              <label class="inline" for={`scope-${s}`}>
                <strong>{s}</strong>: {SCOPE_WORDS[s]}
              </label>
            </p>
          ))}
      </fieldset>
      <label for="lifetime">For how long</label>
      <select id="lifetime" name="lifetime">
        {Lifetime.options.map((l) => (
          <option value={l} selected={l === DEFAULT_LIFETIME}>
            {GRANT_LIFETIMES[l].label}
          </option>
        ))}
      </select>
    </>
  );
}

/** Approve and Deny of both forms: the routes read `decision`, so both must name them alike. */
function Decision() {
  return (
    <>
      <button type="submit" name="decision" value="approve">
        Approve
      </button>{" "}
      <button type="submit" name="decision" value="deny" class="danger">
        Deny
      </button>
    </>
  );
}

/** What the two forms share besides their credential. */
interface ApprovalProps {
  facts: ApprovalFacts;
  origin: string;
  error?: string | undefined;
}

/** The page's frame: heading, facts, a refusal if any, then `children` (the forms). */
function ApprovalFrame(p: ApprovalProps & { csrf?: string | undefined; children: Child }) {
  return (
    <Layout title="Connect an assistant" site="ledgergate" csrf={p.csrf}>
      <h1>Connect {p.facts.consent.clientName} to ledgergate?</h1>
      <Facts facts={p.facts} origin={p.origin} />
      {p.error ? (
        <p class="error" role="alert">
          {p.error}
        </p>
      ) : null}
      {p.children}
    </Layout>
  );
}

/** The page for the holder of a tenant's gateway key (and a way on for the operator). */
export function KeyApprovalPage(p: ApprovalProps) {
  return (
    <ApprovalFrame {...p}>
      <form method="post" action="/oauth/authorize">
        <input type="hidden" name="consent" value={p.facts.handle} />
        <input type="hidden" name="request" value={p.facts.request} />
        <Choices facts={p.facts} />
        <label for="gatewayKey">The tenant's gateway key</label>
        <input id="gatewayKey" name="gatewayKey" type="password" autocomplete="off" />
        <p class="muted">
          The key proves you may act for the tenant it names; the connection is for that tenant
          only. The key is not kept with it and never reaches the assistant.
        </p>
        <Decision />
      </form>
      <p class="muted">
        The operator may approve instead, signed in to the console in this browser, and pick the
        tenant there:{" "}
        <a href={`/console/oauth/authorize?${new URLSearchParams({ request: p.facts.request })}`}>
          approve as the operator
        </a>
        .
      </p>
    </ApprovalFrame>
  );
}

/** The operator's page: a tenant to pick, the console's session and CSRF token. */
export function OperatorApprovalPage(
  p: ApprovalProps & { csrf: string; tenants: string[]; tenant?: string | undefined },
) {
  return (
    <ApprovalFrame {...p}>
      <form method="post" action="/console/oauth/approve">
        <input type="hidden" name="csrf" value={p.csrf} />
        <input type="hidden" name="consent" value={p.facts.handle} />
        <input type="hidden" name="request" value={p.facts.request} />
        <label for="tenant">Tenant</label>
        <select id="tenant" name="tenant">
          {p.tenants.map((t) => (
            <option value={t} selected={t === p.tenant}>
              {t}
            </option>
          ))}
        </select>
        <Choices facts={p.facts} />
        <Decision />
      </form>
    </ApprovalFrame>
  );
}
