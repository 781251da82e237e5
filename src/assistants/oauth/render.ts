/**
 * @module
 * How the approval pages leave: the console's headers (no framing, no caching, nothing from another
 * origin), with one difference: the form may lead to the client's redirect URI. Browsers hold a
 * form's submission to the page's `form-action` through every redirect, so a page allowing only
 * `'self'` would block the very redirect that hands the client its code; the page allows the
 * redirect URI's origin too, and nothing else. The consent transaction's cookie (`__Host-`, binding
 * the form to this browser) goes with the page.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CONSOLE_HEADERS } from "../../console/render";

/** A JSX page, rendered. */
interface Renderable {
  toString(): string | Promise<string>;
}

/** The origin of a redirect URI, for the CSP; null for one that has none (a private-use scheme). */
function originOf(uri: string): string | null {
  try {
    const origin = new URL(uri).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The HTML answer of an approval page whose form leads to `redirectUri`, with the cookies of
 * `transaction` (the consent's binding cookie).
 */
export async function approvalHtml(
  page: Renderable,
  redirectUri: string,
  transaction: Headers,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const target = originOf(redirectUri);
  const headers = new Headers({
    ...CONSOLE_HEADERS,
    "content-security-policy": `default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'${target ? ` ${target}` : ""}; frame-ancestors 'none'; base-uri 'none'`,
    "content-type": "text/html; charset=UTF-8",
  });
  for (const cookie of transaction.getSetCookie()) headers.append("set-cookie", cookie);
  return new Response(`<!doctype html>${await page.toString()}`, { status, headers });
}
