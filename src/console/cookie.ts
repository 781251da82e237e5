/**
 * @module The console's cookies, the session's CSRF token and the refusal of cross-site form posts.
 * See docs/design/console-session.md.
 */
import { mac, macValid, type Session } from "./session";

/** Not `__Host-`: that prefix demands `Path=/`, and the cookie must reach `/console` only. */
export const SESSION_COOKIE = "lg_console";
export const COOKIE_PATH = "/console";

/** Hosts where the cookie goes without `Secure`: loopback, where `npm start` serves plain http. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function isLoopback(url: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(url).hostname);
}

/** The `Set-Cookie` line of a console cookie (`maxAgeSeconds` 0 clears it), with its flags. */
export function consoleCookie(
  name: string,
  value: string,
  maxAgeSeconds: number,
  url: string,
): string {
  const flags = [
    `${name}=${value}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    "HttpOnly",
    "SameSite=Strict",
  ];
  if (!isLoopback(url)) flags.push("Secure");
  return flags.join("; ");
}

export function cookieNamed(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

export const sessionCookie = (value: string, maxAgeSeconds: number, url: string) =>
  consoleCookie(SESSION_COOKIE, value, maxAgeSeconds, url);

export const cookieValue = (header: string | undefined) => cookieNamed(header, SESSION_COOKIE);

/** The prefix keeps a CSRF token from ever passing for a session token. */
const csrfText = (s: Session) => `csrf.${s.id}`;

/** A session's CSRF token: an HMAC of its id, stored nowhere, worthless in another session. */
export function csrfToken(key: CryptoKey, s: Session): Promise<string> {
  return mac(key, csrfText(s));
}

export async function csrfValid(key: CryptoKey, s: Session, given: unknown): Promise<boolean> {
  return typeof given === "string" && macValid(key, csrfText(s), given);
}

/**
 * Whether a form post comes from another site, by the browser's `Sec-Fetch-Site` or `Origin`; a
 * client that sends neither (curl, the tests) is judged by the CSRF token alone.
 */
export function crossSite(
  headers: { origin?: string | undefined; fetchSite?: string | undefined },
  url: string,
): boolean {
  if (
    headers.fetchSite !== undefined &&
    headers.fetchSite !== "same-origin" &&
    headers.fetchSite !== "none"
  )
    return true;
  return headers.origin !== undefined && headers.origin !== new URL(url).origin;
}
