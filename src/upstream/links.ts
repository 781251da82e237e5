/**
 * @module
 * Links in the API's response headers, pointed at the gateway. A caller follows `Location` and the
 * page links of `X-Pagination` with the credentials it has, which is its gateway key: a link left
 * pointing at the API's host would send that key there, and a link to any other host anywhere. So a
 * link below the environment's API root becomes the same path below the gateway's `/v2`, and every
 * other URL is dropped; no upstream URL reaches a caller.
 */

/**
 * `link` (absolute, or relative to the API root) as the gateway's URL for the same resource, or
 * null when it points anywhere but below `apiBaseUrl`. The root is compared without regard to case,
 * as the API matches paths (`/Demo/v2` and `/demo/v2` both work).
 *
 * @param link a URL from an API response header
 * @param apiBaseUrl the environment's API root, e.g. `https://goapi.poweroffice.net/Demo/v2`
 * @param gatewayOrigin the origin the caller reached the gateway at, e.g. `https://gateway.example`
 * @returns the gateway URL, or null to drop the link
 * @example
 * gatewayLink("https://goapi.poweroffice.net/Demo/v2/Customers?PageNumber=2", root,
 * "https://gw.example") // "https://gw.example/v2/Customers?PageNumber=2"
 */
export function gatewayLink(
  link: string,
  apiBaseUrl: string,
  gatewayOrigin: string,
): string | null {
  const base = new URL(apiBaseUrl);
  let url: URL;
  try {
    url = new URL(link, `${base.href.replace(/\/$/, "")}/`);
  } catch {
    return null;
  }
  // Userinfo, another scheme or port: not the API root, whatever the host says.
  if (url.origin !== base.origin || url.username !== "" || url.password !== "") return null;
  const root = base.pathname.replace(/\/$/, "").toLowerCase();
  const path = url.pathname;
  const below = path.toLowerCase() === root || path.toLowerCase().startsWith(`${root}/`);
  return below ? `${gatewayOrigin}/v2${path.slice(root.length)}${url.search}` : null;
}

/**
 * `X-Pagination` (a JSON object: `totalCount`, `pageSize`, …, `previousPageLink`, `nextPageLink`)
 * with every URL in it pointed at the gateway, or dropped (null) when it points elsewhere. Null for
 * a header that is not a JSON object: what cannot be read cannot be vouched for.
 *
 * @example
 * gatewayPagination('{"currentPage":1,"nextPageLink":"https://api/v2/Customers?PageNumber=2"}',
 * "https://api/v2", "https://gw") //
 * '{"currentPage":1,"nextPageLink":"https://gw/v2/Customers?PageNumber=2"}'
 */
export function gatewayPagination(
  header: string,
  apiBaseUrl: string,
  gatewayOrigin: string,
): string | null {
  let value: unknown;
  try {
    value = JSON.parse(header);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // A `…Link` field (even a relative one) and any absolute URL, whatever its key, is a link; a
    // nested value is dropped, since the API's pagination has none and it could hide one.
    const isLink = typeof v === "string" && (/link$/i.test(key) || URL.canParse(v));
    out[key] = isLink
      ? gatewayLink(v, apiBaseUrl, gatewayOrigin)
      : typeof v === "object"
        ? null
        : v;
  }
  return JSON.stringify(out);
}
