/**
 * @module
 * The console's session: a token the Worker signs itself (HMAC-SHA256), carried in a cookie. It
 * names a random session id, when the session began and when it lapses; nothing secret is in it.
 *
 * The signing key is derived from `ADMIN_TOKEN`, not `SECRETS_KEY`: the session stands for "this
 * browser proved it holds the operator token", so changing the token (the operator's way to lock
 * everyone out) must end every session, and it does without any list. `SECRETS_KEY` rotates on its
 * own schedule, for sealing, and has a previous key accepted on purpose, which a session must not.
 *
 * Lifetime: sliding, `SESSION_IDLE_MS` after the last request, but never past `SESSION_MAX_MS`
 * after sign-in, so a forgotten open tab does not keep a session forever. Signing out adds the id
 * to a revocation list in the Directory object (`tenant/directory-object.ts`), kept until no cookie
 * of it can be valid any more; stateless tokens cannot otherwise be ended before they lapse.
 */
import { fromBase64Url, randomSecret, toBase64Url } from "../kernel/crypto";
import { hmacSha256 } from "../orders/adapters/signature";

/**
 * How long a session lasts without a request, ms: short, since the cookie opens the operator's
 * powers.
 */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/**
 * The longest a session lasts however busy, ms: a working day, then the token is asked for again.
 */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;

const encoder = new TextEncoder();
/**
 * Domain separation: these keys sign sessions and CSRF tokens, nothing else signed with
 * `ADMIN_TOKEN` can pass for one.
 */
const KEY_LABEL = "ledgergate/console/session/v1";

/** A verified session. */
export interface Session {
  id: string;
  /** Epoch ms of the sign-in. */
  issuedAt: number;
  /** Epoch ms after which the cookie is refused. */
  expiresAt: number;
}

/**
 * The console's signing key, derived from the operator token (HMAC of a fixed label, keyed by the
 * token), so the token itself never signs anything a browser holds. It both signs and verifies.
 */
export async function sessionKey(adminToken: string): Promise<CryptoKey> {
  const derived = await hmacSha256(adminToken, KEY_LABEL);
  return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

/** base64url HMAC of `text` under `key`. */
export async function mac(key: CryptoKey, text: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text))));
}

/**
 * Whether `given` is `mac(key, text)`. Checked by `crypto.subtle.verify`, which compares in
 * constant time; text that is not canonical base64url is refused before any MAC is computed.
 */
export async function macValid(key: CryptoKey, text: string, given: string): Promise<boolean> {
  const sig = fromBase64Url(given);
  return sig !== null && crypto.subtle.verify("HMAC", key, sig, encoder.encode(text));
}

/** The cookie value of `s`: `id.issuedAt.expiresAt.mac`. */
export async function encodeSession(key: CryptoKey, s: Session): Promise<string> {
  const body = `${s.id}.${s.issuedAt}.${s.expiresAt}`;
  return `${body}.${await mac(key, `session.${body}`)}`;
}

/** A new session at `now`. */
export function newSession(now: number): Session {
  return { id: randomSecret(18), issuedAt: now, expiresAt: now + SESSION_IDLE_MS };
}

/** The session slid forward to `now` (capped at `SESSION_MAX_MS` after sign-in). */
export function slide(s: Session, now: number): Session {
  return { ...s, expiresAt: Math.min(now + SESSION_IDLE_MS, s.issuedAt + SESSION_MAX_MS) };
}

/**
 * The session a cookie value names, if its signature holds and it has not lapsed at `now`; null
 * otherwise (forged, signed under an earlier `ADMIN_TOKEN`, expired, or malformed: never told
 * apart).
 */
export async function readSession(
  key: CryptoKey,
  value: string | undefined,
  now: number,
): Promise<Session | null> {
  const m = /^([A-Za-z0-9_-]{16,64})\.(\d{1,16})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(
    value ?? "",
  );
  if (!m) return null;
  const [, id = "", issued = "", expires = "", given = ""] = m;
  if (!(await macValid(key, `session.${id}.${issued}.${expires}`, given))) return null;
  const s = { id, issuedAt: Number(issued), expiresAt: Number(expires) };
  return s.expiresAt > now && s.issuedAt <= now && now < s.issuedAt + SESSION_MAX_MS ? s : null;
}

/**
 * Until when a signed-out id must stay revoked, epoch ms: the session's hard end. A request in
 * flight while the operator signs out may still slide a cookie forward, so "idle time from now"
 * would not be enough; the hard end bounds every cookie of the id, and the list stays tiny (one
 * row per sign-out, purged after at most `SESSION_MAX_MS`).
 */
export function revokeUntil(s: Session): number {
  return s.issuedAt + SESSION_MAX_MS;
}
