/**
 * @module
 * The page at the end of onboarding: what was connected, or why not. Escaped HTML, no script; no
 * key, token or state is ever passed in.
 */
import { tenantPath } from "../console/views";
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { FinishFailure, Finished } from "./finish";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Never cached, framed or sent as a Referer (its address held the state and the token). */
export const PAGE_HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'",
  "x-frame-options": "DENY",
} as const;

/** The link's own faults are 4xx, the API's 5xx. */
const FAILURE_STATUS: Record<FinishFailure, 400 | 403 | 409 | 410 | 502 | 503> = {
  "unknown-state": 400,
  "used-state": 409,
  "expired-state": 410,
  declined: 403,
  "no-token": 400,
  refused: 502,
  unavailable: 503,
};

const FAILURE_TITLE: Record<FinishFailure, string> = {
  "unknown-state": "Unknown onboarding link",
  "used-state": "This onboarding link was used already",
  "expired-state": "This onboarding link has expired",
  declined: "Not connected",
  "no-token": "Not connected",
  refused: "The accounting system refused to finish",
  unavailable: "The accounting system is not available",
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#f6f6f4}
main{max-width:40rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #ccc;border-radius:6px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #ddd;vertical-align:top}
code{font-size:.95em;background:#f0f0ee;padding:0 .2em}.note{color:#444;font-size:.9rem}`;

function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ledgergate</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export function callbackPage(f: Finished): {
  status: 200 | 400 | 403 | 409 | 410 | 502 | 503;
  page: Html;
} {
  if (!f.ok) {
    const title = FAILURE_TITLE[f.reason];
    return {
      status: FAILURE_STATUS[f.reason],
      page: layout(title, html`<h1>${title}</h1><p role="alert">${f.detail}</p>`),
    };
  }
  const rows = f.connected.map(
    (c) =>
      html`<tr><td>${c.name}</td><td>${c.organizationNumber ?? "—"}</td><td><a href="${tenantPath(f.environment, c.client)}"><code>${c.tenant}</code></a></td></tr>`,
  );
  const failures = f.failed.map(
    (c) =>
      html`<li>${c.name}${c.organizationNumber ? ` (${c.organizationNumber})` : ""}: ${c.detail}</li>`,
  );
  const title = f.connected.length > 0 ? "Connected" : "Nothing was connected";
  return {
    status: f.connected.length > 0 ? 200 : 502,
    page: layout(
      title,
      html`<h1>${title}</h1>
${
  f.connected.length > 0
    ? html`<p>These companies are now connected in the <strong>${f.environment}</strong> environment. You can close this page.</p>
<table><caption class="note">Connected companies</caption><thead><tr><th scope="col">Company</th><th scope="col">Organization number</th><th scope="col">Tenant</th></tr></thead>
<tbody>${rows}</tbody></table>`
    : ""
}
${failures.length > 0 ? html`<h2>Not connected</h2><ul role="alert">${failures}</ul><p>Ask the operator for a new link to try these again.</p>` : ""}
<p class="note">For the operator: each tenant's name opens its page in the console (after you sign in). A new
tenant has no gateway key in use yet: rotate one there, or create one with
<code>POST /admin/tenants/{environment}/{client}/gateway-keys</code> and <code>{"graceSeconds": 0}</code>; it is shown once.</p>`,
    ),
  };
}
