/**
 * @module
 * Which URLs an endpoint may have. A deployed gateway posts only to `https://` on a public address:
 * an endpoint is a URL a tenant's key holder chooses, and the gateway's own network must not become
 * theirs to probe (SSRF: loopback, private, link-local and other special addresses refused, as
 * Standard Webhooks asks). In the local configuration (`npm start`, the tests; see
 * `eventEndpointsAllowLoopback` in `lib/config.ts`) `http://` to a loopback address is allowed too,
 * so a receiver on the same machine can be tried.
 *
 * What this cannot see: a public name that resolves to a private address (Workers has no DNS API
 * before the fetch). Cloudflare's own egress does not reach private networks, which covers that
 * case in a deploy; the literal checks here keep the obvious ones out of the stored configuration.
 */
import type { Result } from "../result";

/** The longest endpoint URL, characters. */
export const MAX_URL_CHARS = 2000;

/** Host names that are always local. */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** Whether an IPv4 dotted quad is in a range a public endpoint never has. */
function specialIPv4(host: string): boolean | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const [a = 0, b = 0] = m.slice(1).map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** Whether an IPv6 literal (without brackets) is loopback, private, link-local or mapped. */
function specialIPv6(host: string): boolean {
  const h = host.toLowerCase();
  return (
    h === "::" ||
    h === "::1" ||
    /^f[cd]/.test(h) ||
    /^fe[89ab]/.test(h) ||
    h.startsWith("::ffff:") ||
    h.startsWith("64:ff9b:") ||
    h.startsWith("ff")
  );
}

/** Whether `host` (as `URL` gives it) is a loopback address. */
function loopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * `text` as an endpoint URL, or why it cannot be one.
 *
 * @param text the URL given
 * @param allowLoopback the local configuration's exception: `http://` or `https://` to loopback
 * @returns the URL as `URL` normalizes it
 * @example endpointUrl("https://shop.example/hooks", false) // { ok: true, value: "https://shop.example/hooks" }
 */
export function endpointUrl(text: string, allowLoopback: boolean): Result<string, string> {
  if (text.length > MAX_URL_CHARS)
    return { ok: false, error: `must be at most ${MAX_URL_CHARS} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: "must be an absolute URL" };
  }
  if (url.username || url.password)
    return { ok: false, error: "must not carry a user name or password" };
  const host = url.hostname;
  if (allowLoopback && loopback(host) && (url.protocol === "http:" || url.protocol === "https:"))
    return { ok: true, value: url.href };
  if (url.protocol !== "https:")
    return {
      ok: false,
      error: allowLoopback
        ? "must be https:// (http:// only to a loopback address, in the local configuration)"
        : "must be https://",
    };
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  const special = host.startsWith("[") ? specialIPv6(bare) : specialIPv4(bare);
  if (special || (special === null && (LOCAL_NAMES.test(bare) || !bare.includes("."))))
    return {
      ok: false,
      error: "must be a public address (no loopback, private, link-local or local names)",
    };
  return { ok: true, value: url.href };
}
