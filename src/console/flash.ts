/**
 * @module
 * The console's one-time flash: what a form post has to say on the page it redirects to (a
 * confirmation, an error with the values typed, a gateway key shown once), carried from the POST to
 * the GET in a sealed cookie. Every console form answers with a 303 (post-redirect-get), so a
 * reload repeats the GET, never the action; the page that reads the flash clears the cookie, so a
 * reload shows the key no more.
 *
 * Why a cookie and not a URL: a key in a URL lands in the history, the logs and the `Referer`. Why
 * sealed: the cookie may hold a gateway key, so it is AES-256-GCM under a key derived from
 * `ADMIN_TOKEN` (like the session's), bound to the session id as additional data (another session's
 * browser cannot open it) and dated (a flash older than `FLASH_MS` is dropped unread).
 */
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "../kernel/crypto";
import { hmacSha256 } from "../orders/adapters/signature";
import { consoleCookie, cookieNamed } from "./cookie";

/** The flash cookie's name; scoped to `/console` like the session's. */
export const FLASH_COOKIE = "lg_flash";
/** How long a flash waits for its page, ms: a redirect takes far less; a stale one is noise. */
export const FLASH_MS = 5 * 60 * 1000;
const KEY_LABEL = "ledgergate/console/flash/v1";
const encoder = new TextEncoder();

/** What a flash carries. `at` names the form (its anchor) the message belongs beside. */
export const Flash = z.object({
  at: z.string().max(60),
  notice: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
  /** Field-by-field errors, in the words of the fields' labels. */
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  /** What the operator typed, to fill the form again (never a secret). */
  values: z.record(z.string(), z.string()).optional(),
  freshKey: z.object({ gatewayKey: z.string(), previousKeysRetireAt: z.string() }).optional(),
  /** An onboarding just started: the approval page's link to hand to the client. */
  onboarding: z
    .object({ temporaryUrl: z.string(), expiresAt: z.string(), environment: z.string() })
    .optional(),
});
/** What a flash carries. */
export type Flash = z.output<typeof Flash>;

/** The AES-GCM key of flashes, derived from the operator token (see the module's note). */
export async function flashKey(adminToken: string): Promise<CryptoKey> {
  const raw = await hmacSha256(adminToken, KEY_LABEL);
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** The cookie value of `flash` for session `sessionId` at `now`: base64url of IV and ciphertext. */
export async function sealFlash(
  key: CryptoKey,
  sessionId: string,
  flash: Flash,
  now: number,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = encoder.encode(JSON.stringify({ ...flash, exp: now + FLASH_MS }));
  const ct = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(sessionId) },
      key,
      plain,
    ),
  );
  const out = new Uint8Array(iv.length + ct.length);
  out.set(iv);
  out.set(ct, iv.length);
  return toBase64Url(out);
}

/** The flash a cookie value holds for this session at `now`, or null (absent, forged, stale). */
export async function openFlash(
  key: CryptoKey,
  sessionId: string,
  value: string | undefined,
  now: number,
): Promise<Flash | null> {
  const bytes = value ? fromBase64Url(value) : null;
  if (!bytes || bytes.length < 29) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: encoder.encode(sessionId) },
      key,
      bytes.slice(12),
    );
    const parsed = Flash.extend({ exp: z.number() }).safeParse(
      JSON.parse(new TextDecoder().decode(plain)),
    );
    return parsed.success && parsed.data.exp > now ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The `Set-Cookie` line of a flash (an empty value and 0 clear it). */
export const flashCookie = (value: string, maxAgeSeconds: number, url: string) =>
  consoleCookie(FLASH_COOKIE, value, maxAgeSeconds, url);

/** The flash cookie's value in a `Cookie` header, or undefined. */
export const flashValue = (header: string | undefined) => cookieNamed(header, FLASH_COOKIE);
