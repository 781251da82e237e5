/**
 * @module The console's session: a token the Worker signs (HMAC-SHA256) under a key derived from
 * `ADMIN_TOKEN`, so changing the token ends every session. It holds an id and its times, no
 * secret; it slides, within a hard end. See docs/design/console-session.md.
 */
import { fromBase64Url, randomSecret, toBase64Url } from "../kernel/crypto";
import { hmacSha256 } from "../orders/adapters/signature";

/** How long a session lasts without a request, ms: short, as the cookie opens operator powers. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** The longest a session lasts however busy, ms: a working day. */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;

const encoder = new TextEncoder();
/** Domain separation: nothing else signed with `ADMIN_TOKEN` can pass for a session or CSRF MAC. */
const KEY_LABEL = "ledgergate/console/session/v1";

/** A verified session; times in epoch ms. */
export interface Session {
  id: string;
  issuedAt: number;
  /** After it, the cookie is refused. */
  expiresAt: number;
}

/** The signing key: an HMAC of a label keyed by the operator token, so the token signs nothing. */
export async function sessionKey(adminToken: string): Promise<CryptoKey> {
  const derived = await hmacSha256(adminToken, KEY_LABEL);
  return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

export async function mac(key: CryptoKey, text: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text))));
}

/** Whether `given` is `mac(key, text)`, in constant time (`crypto.subtle.verify`). */
export async function macValid(key: CryptoKey, text: string, given: string): Promise<boolean> {
  const sig = fromBase64Url(given);
  return sig !== null && crypto.subtle.verify("HMAC", key, sig, encoder.encode(text));
}

/** The cookie value of `s`: `id.issuedAt.expiresAt.mac`. */
export async function encodeSession(key: CryptoKey, s: Session): Promise<string> {
  const body = `${s.id}.${s.issuedAt}.${s.expiresAt}`;
  return `${body}.${await mac(key, `session.${body}`)}`;
}

export function newSession(now: number): Session {
  return { id: randomSecret(18), issuedAt: now, expiresAt: now + SESSION_IDLE_MS };
}

/** The session slid forward to `now` (capped at `SESSION_MAX_MS` after sign-in). */
export function slide(s: Session, now: number): Session {
  return { ...s, expiresAt: Math.min(now + SESSION_IDLE_MS, s.issuedAt + SESSION_MAX_MS) };
}

/** The session a cookie names if signed and live at `now`; else null, the cause never told. */
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

/** How long a signed-out id stays revoked: to the hard end, as a request in flight may slide it. */
export function revokeUntil(s: Session): number {
  return s.issuedAt + SESSION_MAX_MS;
}
