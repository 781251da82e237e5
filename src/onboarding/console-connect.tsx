/**
 * @module
 * Connect a client (onboarding v2's first step) on the tenants page: the form, then the approval
 * page's link to copy or open.
 */
import type { Flash } from "../console/flash";
import { when } from "../console/views";
import { Csrf } from "../console/layout";
import { FormMessage } from "../console/pages/feedback";

export function ConnectForm(p: { csrf: string; flash?: Flash | undefined }) {
  const started = p.flash?.at === "connect" ? p.flash.onboarding : undefined;
  return (
    <section aria-labelledby="connect">
      <h2 id="connect">Connect a client</h2>
      <FormMessage flash={p.flash} at="connect" />
      {started ? <ApprovalLink {...started} /> : null}
      <p>
        The client's user approves the integration in the accounting system. You get a link to send
        them; no client key passes through anyone's hands.
      </p>
      <form method="post" action="/console/onboarding">
        <Csrf token={p.csrf} />
        <label for="environment">Environment</label>
        <select id="environment" name="environment">
          <option value="demo">demo</option>
          <option value="production">production</option>
        </select>
        <label for="organizationNumber">Organization number (optional)</label>
        <input
          id="organizationNumber"
          name="organizationNumber"
          inputmode="numeric"
          pattern="\s*([0-9]{9})?\s*"
          autocomplete="off"
        />
        <button type="submit">Start onboarding</button>
      </form>
    </section>
  );
}

/** The link, also in a read-only field: a link's text cannot be selected whole on a phone. */
function ApprovalLink(p: { temporaryUrl: string; expiresAt: string; environment: string }) {
  return (
    <div class="fresh" role="status">
      <p>
        Onboarding started. Send this link to a user of the client company in {p.environment}, or
        open it yourself if you are that user:
      </p>
      <label for="approval-link">Approval page link</label>
      <input id="approval-link" class="copy" readonly value={p.temporaryUrl} />
      <p>
        <a href={p.temporaryUrl} rel="noreferrer">
          Open the approval page
        </a>
      </p>
      <p>
        The link works until {when(p.expiresAt)}. When the user approves, the gateway connects each
        approved company as a tenant, and it shows up in the list above.
      </p>
    </div>
  );
}
