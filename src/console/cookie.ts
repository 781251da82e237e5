/**
 * @module
 * The console's cookie and its request checks: the `Set-Cookie` line with its flags, reading the
 * cookie back, the CSRF token of a session, and the refusal of cross-site form posts.
 */
import { mac, macValid, type Session } from "./session";

/**
 * The cookie's name. Not `__Host-`: that prefix demands `Path=/`, and the cookie is scoped to
 * `/console` so no other route of the gateway (the API, webhooks) ever receives it.
 */
export const SESSION_COOKIE = "lg_console";
export const COOKIE_PATH = "/console";

/**
 * Hosts where the cookie goes without `Secure`: loopback only, where `npm start` serves plain
 * http and no network sits between browser and Worker. Everywhere else (the tests' https host
 * included) it is `Secure`.
 */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether the request's host is a loopback one (see `LOOPBACK_HOSTS`). */
export function isLoopback(url: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(url).hostname);
}

/**
 * The `Set-Cookie` line of the console's cookie `name` for `value` lasting `maxAgeSeconds` (0
 * clears it). `HttpOnly`: no script reads it; `SameSite=Strict`: no other site's page sends it, not
 * even on a top-level link; `Path=/console`: no other route of the gateway receives it; `Secure`
 * except on loopback.
 */
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

/** The value of the cookie `name` in a `Cookie` header, or undefined. */
export function cookieNamed(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/** The session's `Set-Cookie` line (`consoleCookie`). */
export const sessionCookie = (value: string, maxAgeSeconds: number, url: string) =>
  consoleCookie(SESSION_COOKIE, value, maxAgeSeconds, url);

/** The session cookie's value in a `Cookie` header, or undefined. */
export const cookieValue = (header: string | undefined) => cookieNamed(header, SESSION_COOKIE);

/**
 * What a session's CSRF token is the MAC of; the prefix keeps it from ever passing for a session
 * token.
 */
const csrfText = (s: Session) => `csrf.${s.id}`;

/**
 * The CSRF token of a session: an HMAC of its id, so it needs no storage and cannot be made
 * without the signing key, and a token of one session is worthless in another.
 */
export function csrfToken(key: CryptoKey, s: Session): Promise<string> {
  return mac(key, csrfText(s));
}

/** Whether `given` is the session's CSRF token (constant time, see `macValid`). */
export async function csrfValid(key: CryptoKey, s: Session, given: unknown): Promise<boolean> {
  return typeof given === "string" && macValid(key, csrfText(s), given);
}

/**
 * Whether a form post comes from another site, by the browser's own word: `Sec-Fetch-Site`
 * anything but `same-origin` (or `none`, a user's own navigation), or an `Origin` of another origin
 * (`null` included, as a sandboxed frame sends). A client that sends neither (curl, the tests) is
 * judged by the CSRF token alone, which every form post needs anyway.
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
