/**
 * @module
 * A tenant's assistant connections on its page: each OAuth grant, with a button that revokes it.
 */
import type { GrantView } from "../tenant/assistant-grants";
import type { Flash } from "../../console/flash";
import { when } from "../../console/views";
import { Csrf } from "../../console/layout";
import { Table } from "../../console/table";
import { FormMessage } from "../../console/pages/feedback";

/** The section: the grants, or a line saying there are none, and how one is made. */
export function AssistantGrants(p: {
  csrf: string;
  /** The tenant's path, `/console/tenants/<environment>/<client>`. */
  path: string;
  grants: GrantView[];
  flash?: Flash | undefined;
}) {
  return (
    <>
      <h2 id="assistants">Assistants</h2>
      <FormMessage flash={p.flash} at="assistants" />
      <p>
        Assistants connected through OAuth (claude.ai, ChatGPT): each was approved by someone with
        the tenant's gateway key, or by the operator, for one scope and a lifetime. Revoking one
        refuses its tokens from the next request on.
      </p>
      {p.grants.length === 0 ? (
        <p class="muted">No assistant is connected.</p>
      ) : (
        <Table
          columns={[
            "Client",
            "Tokens go to",
            "Scope",
            "Approved by",
            "Created",
            "Last used",
            "Ends",
            "Revoke",
          ]}
          rows={p.grants.map((g) => [
            <>
              {g.clientName}
              <br />
              <code class="muted">{g.id}</code>
            </>,
            g.redirectHost,
            g.scope,
            g.approvedBy,
            when(g.createdAt),
            g.lastUsedAt ? when(g.lastUsedAt) : "never",
            when(g.expiresAt),
            <form method="post" action={`${p.path}/grants/${g.id}/revoke`}>
              <Csrf token={p.csrf} />
              <button type="submit" class="danger" aria-label={`Revoke ${g.clientName} (${g.id})`}>
                Revoke
              </button>
            </form>,
          ])}
        />
      )}
    </>
  );
}
