/**
 * @module
 * How every console answer leaves: the doctype, and the headers that keep the pages to themselves
 * (no framing, no script or asset from anywhere, no caching of pages that show tenants' state).
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The console's response headers. The CSP allows nothing but this origin and the pages' own inline
 * style (there is no script at all); `frame-ancestors` and `X-Frame-Options` both refuse framing,
 * for browsers that know only one; `no-store`, because a page may hold a key shown once.
 */
export const CONSOLE_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

/** A JSX page, rendered. */
interface Renderable {
  toString(): string | Promise<string>;
}

/** The HTML answer of `page` with the console's headers. */
export async function html(
  c: Context,
  page: Renderable,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  return c.html(`<!doctype html>${await page.toString()}`, status, CONSOLE_HEADERS);
}

/**
 * A 303 to `path` (after a form post, so a reload does not post again), with the console's headers.
 */
export function see(c: Context, path: string, headers: Record<string, string> = {}): Response {
  return c.body(null, 303, { ...CONSOLE_HEADERS, location: path, ...headers });
}
