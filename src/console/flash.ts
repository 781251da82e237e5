/**
 * @module The one-time flash: what a form post says on the page it redirects to, in a cookie (never
 * a URL) sealed to the session and dated, since it may hold a gateway key. Read once, then cleared.
 * See docs/design/console-session.md.
 */
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "../kernel/crypto";
import { hmacSha256 } from "../orders/adapters/signature";
import { consoleCookie, cookieNamed } from "./cookie";

export const FLASH_COOKIE = "lg_flash";
/** How long a flash waits for its page, ms: a redirect takes far less; a stale one is noise. */
export const FLASH_MS = 5 * 60 * 1000;
const KEY_LABEL = "ledgergate/console/flash/v1";
const encoder = new TextEncoder();

/** What a flash carries; `at` names the form (its anchor) the message belongs beside. */
export const Flash = z.object({
  at: z.string().max(60),
  notice: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  /** What the operator typed, to fill the form again (never a secret). */
  values: z.record(z.string(), z.string()).optional(),
  freshKey: z.object({ gatewayKey: z.string(), previousKeysRetireAt: z.string() }).optional(),
  onboarding: z
    .object({ temporaryUrl: z.string(), expiresAt: z.string(), environment: z.string() })
    .optional(),
});
export type Flash = z.output<typeof Flash>;

/** The AES-GCM key of flashes, derived from the operator token. */
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

export const flashCookie = (value: string, maxAgeSeconds: number, url: string) =>
  consoleCookie(FLASH_COOKIE, value, maxAgeSeconds, url);

export const flashValue = (header: string | undefined) => cookieNamed(header, FLASH_COOKIE);
