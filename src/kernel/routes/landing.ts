/** @module `GET /`'s page (where to go: console, docs, health) and the icon. Static, no script. */

export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#15324d"/><text x="16" y="22" font-family="sans-serif" font-size="16" font-weight="700" fill="#fff" text-anchor="middle">lg</text></svg>';

export function landingPage(version: string): string {
  const safe = version.replace(/[^\w.+-]/g, "");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/><title>ledgergate</title><link rel="icon" href="/favicon.ico" type="image/svg+xml"/><style>body{margin:0 auto;max-width:40rem;padding:1rem;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a}a{color:#0b4f8a}</style></head><body><main><h1>ledgergate</h1><p>An edge gateway for the accounting API v2 (version ${safe}).</p><ul><li><a href="/console">Console</a>: the operator's pages (sign in with the operator token)</li><li><a href="/docs">API docs</a>: ledgergate's own routes and API v2 through it</li><li><a href="/healthz">Health</a>: is the gateway up, and which environments are configured</li></ul></main></body></html>`;
}
