/**
 * @module
 * How the approval pages leave: the console's headers, except that `form-action` also allows the
 * redirect URI's origin (browsers hold a form's submission to it through every redirect, so
 * `'self'` alone would block the code's redirect), with the consent's binding cookie.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CONSOLE_HEADERS } from "../../console/render";

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

/** The HTML answer of an approval page whose form leads to `redirectUri`. */
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
