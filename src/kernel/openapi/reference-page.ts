/**
 * @module
 * The reference page at `/docs`: its HTML, the script that starts Scalar's API reference with the
 * page's configuration, and the headers it is served with. Pure values; `kernel/routes/docs.ts`
 * serves them.
 *
 * The page is meant to work offline and to show only the two documents. Scalar's defaults assume
 * its hosted product: requests go through `proxy.scalar.com`, an "Ask AI" agent loads a registry
 * from `api.scalar.com`, and on localhost a toolbar offers Configure, Share and Deploy. Each is
 * switched off here by name, and the Content-Security-Policy blocks whatever a later Scalar release
 * adds: scripts, requests, images and fonts from this origin only.
 */

/** Where the page's documents are served, and the slugs Scalar selects them by (`?api=v2`). */
export interface ReferenceSource {
  title: string;
  slug: string;
  url: string;
}

/**
 * Scalar's options for the page (see `@scalar/types`, `ApiReferenceConfiguration`). Written out
 * here rather than typed against that package: its zod schema accepts unknown keys silently, so a
 * test reads this object back from `/docs/init.js` instead.
 */
export function referenceConfig(sources: readonly ReferenceSource[]): Record<string, unknown> {
  // Per source as well as at the top: Scalar reads `agent` from the selected document's entry.
  const agent = { disabled: true };
  return {
    sources: sources.map((s) => ({ ...s, agent })),
    // An empty proxy, not an absent one: absent means proxy.scalar.com for requests a browser
    // could not send itself. "Test request" calls go straight to this origin.
    proxyUrl: "",
    telemetry: false,
    // System fonts: the default loads fonts.scalar.com.
    withDefaultFonts: false,
    // The toolbar with Configure, Share and Deploy (shown on localhost by default).
    showDeveloperTools: "never",
    // "Ask AI" and its search, which load api.scalar.com's registry through the proxy.
    agent,
    // "Open API Client" in the sidebar: a hosted client's entry point, not part of the reference.
    hideClientButton: true,
    hideDarkModeToggle: true,
    // Code samples in the languages an integrator of a JSON API reaches for first.
    hiddenClients: HIDDEN_CLIENTS,
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    documentDownloadType: "json",
    // The sidebar's "Powered by Scalar" link has no option; the product is credited in
    // docs/openapi.md instead.
    customCss: 'a[href*="scalar.com"] { display: none; }',
    operationTitleSource: "summary",
    pageTitle: PAGE_TITLE,
  };
}

/** Targets whose code samples are hidden: all but shell (curl), js (fetch), node and python. */
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

/**
 * The script that starts the reference: `Scalar.createApiReference` with `config`. A file of its
 * own, not an inline `<script>`, so the CSP can allow scripts from this origin only.
 *
 * @param config - from {@link referenceConfig}
 * @returns JavaScript source
 */
export function referenceInitScript(config: Record<string, unknown>): string {
  return `Scalar.createApiReference("#app", ${JSON.stringify(config, null, 2)});\n`;
}

/**
 * The page: an empty mount point, Scalar's bundle and the start script, both from this origin.
 *
 * @param scripts - the bundle's path, then the start script's
 * @returns the HTML document
 */
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

/**
 * Headers of the page. The CSP: this origin only for scripts, requests, images and fonts; styles
 * also inline, because Scalar's components set theirs at run time; no plugins, no `<base>`, no
 * framing. `no-cache`: the page is tiny and names the scripts, which are cached.
 */
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
