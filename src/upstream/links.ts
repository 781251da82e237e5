/**
 * @module Links in the API's response headers, pointed at the gateway (a caller follows them with
 * its gateway key): below the API root to the same path below `/v2`, every other URL dropped.
 */

/**
 * `link` as the gateway's URL, or null outside `apiBaseUrl` (compared without case, as the API).
 * @example
 * gatewayLink("https://a/Demo/v2/Items", "https://a/demo/v2", "https://g") // "https://g/v2/Items"
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
 * `X-Pagination` with its URLs pointed at the gateway or dropped; null for a header that is not a
 * JSON object (what cannot be read is not vouched for).
 * @example gatewayPagination('{"nextPageLink":"https://api/v2/X"}', "https://api/v2", "https://gw")
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
    // A `…Link` field or any absolute URL is a link; a nested value (the API has none) is dropped.
    const isLink = typeof v === "string" && (/link$/i.test(key) || URL.canParse(v));
    out[key] = isLink
      ? gatewayLink(v, apiBaseUrl, gatewayOrigin)
      : typeof v === "object"
        ? null
        : v;
  }
  return JSON.stringify(out);
}
