/**
 * @module The `/docs` page (Scalar's API reference): offline, the two documents only. Each hosted
 * default is off by name; the CSP blocks what a later Scalar release adds (docs/openapi.md).
 */

export interface ReferenceSource {
  title: string;
  slug: string;
  url: string;
}

/** Scalar's options, untyped: its schema accepts unknown keys, so a test reads them back. */
export function referenceConfig(sources: readonly ReferenceSource[]): Record<string, unknown> {
  // Per source as well as at the top: Scalar reads `agent` from the selected document's entry.
  const agent = { disabled: true };
  return {
    sources: sources.map((s) => ({ ...s, agent })),
    // Empty, not absent: absent means proxy.scalar.com for requests a browser could not send.
    proxyUrl: "",
    telemetry: false,
    withDefaultFonts: false,
    showDeveloperTools: "never",
    // "Ask AI" loads api.scalar.com's registry through the proxy.
    agent,
    hideClientButton: true,
    hideDarkModeToggle: true,
    hiddenClients: HIDDEN_CLIENTS,
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    documentDownloadType: "json",
    // "Powered by Scalar" has no option; docs/openapi.md credits the product.
    customCss: 'a[href*="scalar.com"] { display: none; }',
    operationTitleSource: "summary",
    pageTitle: PAGE_TITLE,
  };
}

const HIDDEN_CLIENTS: Record<string, boolean | string[]> = {
  c: true,
  clojure: true,
  csharp: true,
  dart: true,
  fsharp: true,
  go: true,
  http: true,
  java: true,
  kotlin: true,
  objc: true,
  ocaml: true,
  php: true,
  powershell: true,
  r: true,
  ruby: true,
  rust: true,
  swift: true,
  shell: ["httpie", "wget"],
  js: ["axios", "jquery", "xhr", "ofetch"],
  node: ["axios", "undici", "ofetch"],
  python: ["httpx_sync", "httpx_async", "python3"],
};

const PAGE_TITLE = "ledgergate API reference";

/** The start script: a file, not an inline `<script>`, so the CSP allows this origin's only. */
export function referenceInitScript(config: Record<string, unknown>): string {
  return `Scalar.createApiReference("#app", ${JSON.stringify(config, null, 2)});\n`;
}

export function referencePageHtml(scripts: { bundle: string; init: string }): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${PAGE_TITLE}</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="${scripts.bundle}"></script>
    <script src="${scripts.init}"></script>
  </body>
</html>
`;
}

/** Inline styles: Scalar sets its own at run time. `no-cache`: the page names the scripts. */
export const REFERENCE_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": [
    "default-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
});
