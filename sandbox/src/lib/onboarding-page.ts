/**
 * @module
 * The approval page of an onboarding, server-rendered: plain HTML, one form, no script and no
 * external asset. `html` escapes every interpolated value.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { OnboardingView } from "../durable/onboarding-book";
import type { Environment } from "../env";

type Page = HtmlEscapedString | Promise<HtmlEscapedString>;

/**
 * What every page answers with besides its body: never cached or framed (a consent page in a
 * frame can be clicked through), and no Referer, since the address is the session's secret.
 */
export const PAGE_HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
} as const;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#f6f6f4}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #ccc;border-radius:6px}
fieldset{border:1px solid #bbb;border-radius:4px;margin:1rem 0;padding:.75rem 1rem}
label{display:block;margin:.25rem 0}input[type=text]{width:100%;box-sizing:border-box;padding:.4rem;font:inherit}
.choice{display:flex;gap:.5rem;align-items:center}.choice label{display:inline}
button{font:inherit;padding:.5rem 1.25rem;margin-right:.5rem;border-radius:4px;border:1px solid #333;cursor:pointer}
button[value=approve]{background:#14532d;color:#fff}button[value=decline]{background:#fff;color:#1a1a1a}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}.error{color:#991b1b;font-weight:600}
.note{color:#444;font-size:.9rem}`;

function layout(title: string, body: Page): Page {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · accounting API sandbox</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/**
 * The form: the clients offered, a new company, approve or decline. `error` is shown at the top.
 */
export function approvalPage(
  environment: Environment,
  view: Extract<OnboardingView, { state: "pending" }>,
  error: string | null,
  entered: { companyName: string; organizationNumber: string },
): Page {
  const fixedOrgNo = view.orgNo;
  const clients = view.clients.length
    ? view.clients.map(
        (
          c,
          i,
        ) => html`<div class="choice"><input type="checkbox" name="client" value="${c.id}" id="client-${i}"${view.clients.length === 1 ? html` checked` : ""}>
<label for="client-${i}">${c.name}${c.orgNo ? ` (org. no. ${c.orgNo})` : ""}</label></div>`,
      )
    : html`<p>No company ${fixedOrgNo ? `with organization number ${fixedOrgNo} ` : ""}is in the ${environment} environment yet. Create one below.</p>`;
  return layout(
    "Connect an integration",
    html`<h1>Connect an integration</h1>
<p>An integration asks for access to the books of your companies in the <strong>${environment}</strong> environment of the accounting API sandbox.
Approving gives it a client key for each company you pick; you never see or handle that key.</p>
${error ? html`<p class="error" role="alert" id="form-error">${error}</p>` : ""}
<form method="post"${error ? html` aria-describedby="form-error"` : ""}>
<fieldset><legend>Companies to connect</legend>${clients}</fieldset>
<fieldset><legend>Or create a new sandbox company and connect it</legend>
<label for="company-name">Company name</label>
<input type="text" id="company-name" name="companyName" maxlength="200" autocomplete="organization" value="${entered.companyName}">
<label for="organization-number">Organization number (9 digits)</label>
<input type="text" id="organization-number" name="organizationNumber" inputmode="numeric" pattern="[0-9]{9}" maxlength="9"
 value="${fixedOrgNo ?? entered.organizationNumber}"${fixedOrgNo ? html` readonly aria-describedby="org-note"` : ""}>
${fixedOrgNo ? html`<p class="note" id="org-note">The integration asked for this company only.</p>` : ""}
</fieldset>
<p class="note">This page works until ${view.validUntil}.</p>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="decline">Decline</button>
</form>`,
  );
}

/** Why a page cannot be used (any more). */
export function closedPage(state: "unknown" | "expired" | "done"): {
  status: 404 | 409 | 410;
  page: Page;
} {
  const text = {
    unknown: {
      status: 404,
      title: "No such onboarding",
      detail:
        "This address is not an onboarding of this sandbox. Ask the integration for a new link.",
    },
    expired: {
      status: 410,
      title: "This link has expired",
      detail: "Onboarding links work for a short time only. Ask the integration for a new link.",
    },
    done: {
      status: 409,
      title: "Already answered",
      detail:
        "This onboarding was approved or declined already; a link is used once. Ask the integration for a new link if you need one.",
    },
  } as const;
  const t = text[state];
  return { status: t.status, page: layout(t.title, html`<h1>${t.title}</h1><p>${t.detail}</p>`) };
}
