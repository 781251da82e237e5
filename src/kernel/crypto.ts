/**
 * @module WebCrypto only: encodings, client keys sealed (AES-256-GCM with a key id, so
 * `SECRETS_KEY` can rotate), gateway keys hashed (SHA-256: they are random and long), secrets.
 */
import { z } from "zod";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const Sealed = z.object({ kid: z.string(), iv: z.string(), ct: z.string() });
export type Sealed = z.output<typeof Sealed>;

/**
 * Bytes of a standard base64 string (padding optional), or null when it is not base64.
 * @example fromBase64("AQI=") // Uint8Array [1, 2]
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  const t = text.trim();
  if (t === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(t)) return null;
  try {
    return Uint8Array.from(atob(t), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/**
 * base64url without padding: safe in cookies, URLs and file names.
 * @example toBase64Url(new Uint8Array([251, 255])) // "-_8"
 */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * Bytes of unpadded base64url, or null unless canonical: a cookie's MAC can't be respelled.
 * @example fromBase64Url("-_8") // Uint8Array [251, 255]
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return null;
  const bytes = fromBase64(text.replaceAll("-", "+").replaceAll("_", "/"));
  return bytes !== null && toBase64Url(bytes) === text ? bytes : null;
}

/**
 * Bytes of a hex string (either case), or null when it is not an even run of hex digits.
 * @example fromHex("0aff") // Uint8Array [10, 255]
 */
export function fromHex(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length === 0 || text.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const HEX_PAIRS: readonly string[] = Array.from({ length: 256 }, (_, b) =>
  b.toString(16).padStart(2, "0"),
);

/** Lowercase hex, by table: formatting each byte cost a warm call more CPU than the digest. */
export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const b of bytes) hex += HEX_PAIRS[b] ?? "";
  return hex;
}

export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(
    new Uint8Array(
      await crypto.subtle.digest("SHA-256", typeof data === "string" ? encoder.encode(data) : data),
    ),
  );
}

export function randomSecret(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

/** A 32-byte base64 secrets key; its id is a short hash, naming the key without revealing it. */
export async function importSecretsKey(
  base64Key: string,
): Promise<{ kid: string; key: CryptoKey }> {
  const raw = fromBase64(base64Key);
  if (raw === null || raw.byteLength !== 32)
    throw new TypeError("SECRETS_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)");
  const kid = (await sha256Hex(`kid:${base64Key.trim()}`)).slice(0, 12);
  return {
    kid,
    key: await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]),
  };
}

/** Seals with a fresh IV, binding `context` (the tenant) so a copy elsewhere does not open. */
export async function seal(
  plaintext: string,
  k: { kid: string; key: CryptoKey },
  context: string,
): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
    k.key,
    encoder.encode(plaintext),
  );
  return { kid: k.kid, iv: toBase64(iv), ct: toBase64(new Uint8Array(ct)) };
}

/** Opens a record with whichever of `keys` sealed it; null if none did or it was tampered with. */
export async function open(
  sealed: Sealed,
  keys: { kid: string; key: CryptoKey }[],
  context: string,
): Promise<string | null> {
  const k = keys.find((x) => x.kid === sealed.kid);
  const iv = fromBase64(sealed.iv);
  const ct = fromBase64(sealed.ct);
  if (!k || !iv || !ct) return null;
  try {
    const pt = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
      k.key,
      ct,
    );
    return decoder.decode(pt);
  } catch {
    return null;
  }
}
