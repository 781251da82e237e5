/**
 * @module The frame of every console page. No script: the only moving part is a page's
 * `<meta http-equiv="refresh">`.
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";

/**
 * Contrast well above 4.5:1, a visible focus ring, tables that scroll so a page fits a 360 px
 * phone. White links in the header only: a bare `nav a` would paint other navs white on white.
 */
const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
header{background:#15324d;color:#fff}
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;max-width:64rem;margin:0 auto;padding:.5rem 1rem}
header nav a{color:#fff;font-weight:600}
header nav form{margin-left:auto}
header nav form.search{display:flex;align-items:center;gap:.35rem;margin-left:1rem}
header nav form.search label{color:#fff;margin:0}
header nav form.search input{width:16rem;padding:.25rem .4rem}
header .product{font-weight:700;margin-right:.5rem}
nav.jump{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0 0 1rem}
[aria-current=page]{font-weight:700;text-decoration:none}
input.copy{max-width:100%;font-family:ui-monospace,Menlo,Consolas,monospace}
[aria-invalid=true]{border:2px solid #a4161a}
main{max-width:64rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:2rem 0 .5rem;border-bottom:1px solid #c8c8c8}
h3{font-size:1.05rem;margin:1.25rem 0 .25rem}
a{color:#0b4f8a}
:focus-visible{outline:3px solid #c25100;outline-offset:2px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #d6d6d6;vertical-align:top}
th{background:#f1f3f5}
label{display:block;font-weight:600;margin:.75rem 0 .2rem}
label.inline{display:inline;font-weight:400;margin-left:.35rem}
input,select{font:inherit;padding:.4rem;border:1px solid #6b6b6b;border-radius:4px;width:100%;max-width:24rem}
input[type=checkbox],input[type=radio]{width:auto}
button{font:inherit;margin-top:.75rem;padding:.45rem 1rem;border:0;border-radius:4px;background:#0b4f8a;color:#fff;cursor:pointer}
button.danger{background:#a4161a}
header nav button{margin:0;background:#fff;color:#15324d}
code,output{font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
output{display:block;padding:.5rem;background:#fff;border:1px solid #6b6b6b;margin:.25rem 0}
.notice{padding:.75rem 1rem;background:#e6f4ea;border-left:4px solid #1e7b34}
.fresh{padding:.75rem 1rem;background:#fff4e5;border-left:4px solid #c25100}
.error{padding:.5rem .75rem;background:#fdecea;border-left:4px solid #a4161a;color:#5c0a0c}
.muted{color:#4d4d4d}
.error-text{color:#8a1014;font-weight:600}
fieldset{border:1px solid #c8c8c8;border-radius:4px;margin:.75rem 0;padding:.25rem .75rem .75rem}
dl{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.25rem 1rem}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
svg{width:100%;max-width:36rem;height:auto;border:1px solid #c8c8c8;background:#fafafa}
.bar{fill:#0b4f8a}.limit{stroke:#a4161a;stroke-width:1;stroke-dasharray:4 3}
`;

export interface LayoutProps {
  title: string;
  /** The session's CSRF token; with it the navigation and its sign-out form are shown. */
  csrf?: string | undefined;
  /** What the header's search box holds (the search page's query). */
  query?: string | undefined;
  /** Seconds after which the page reloads itself. */
  refresh?: number;
  /** The tab title's suffix: the console, or the approval page's "ledgergate". */
  site?: string;
  children?: Child;
}

/** A hidden field carrying the session's CSRF token; every form has one. */
export const Csrf = ({ token }: { token: string }) => (
  <input type="hidden" name="csrf" value={token} />
);

export function Layout(p: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {p.refresh ? <meta http-equiv="refresh" content={String(p.refresh)} /> : null}
        <title>{`${p.title} · ${p.site ?? "ledgergate console"}`}</title>
        <style>{raw(CSS)}</style>
      </head>
      <body>
        {p.csrf ? (
          <header>
            <nav aria-label="Console">
              <span class="product">ledgergate</span>
              <a href="/console">Tenants</a>
              <a href="/console/budget">Budget</a>
              <form method="get" action="/console/search" role="search" class="search">
                <label for="q" class="inline">
                  Search
                </label>
                <input
                  id="q"
                  name="q"
                  type="search"
                  required
                  maxlength={200}
                  value={p.query ?? ""}
                  placeholder="order, invoice, customer, request, event, payout"
                />
              </form>
              <form method="post" action="/console/sign-out">
                <Csrf token={p.csrf} />
                <button type="submit">Sign out</button>
              </form>
            </nav>
          </header>
        ) : null}
        <main>{p.children}</main>
      </body>
    </html>
  );
}

/** A page that only says something: a refusal, an error, a confirmation. */
export function MessagePage(p: {
  title: string;
  message: string;
  csrf?: string | undefined;
  link?: { href: string; text: string };
}) {
  return (
    <Layout title={p.title} csrf={p.csrf}>
      <h1>{p.title}</h1>
      <p class="error">{p.message}</p>
      {p.link ? (
        <p>
          <a href={p.link.href}>{p.link.text}</a>
        </p>
      ) : null}
    </Layout>
  );
}
