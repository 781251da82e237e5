/**
 * @module
 * WebCrypto only: sealing client keys (AES-256-GCM with a key id, so `SECRETS_KEY` can rotate),
 * hashing gateway keys (SHA-256: they are random and long, so a fast hash is the right one), random
 * secrets, and constant-time comparison.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A sealed secret as stored: which key sealed it, the IV and the ciphertext (base64). */
export interface Sealed {
  kid: string;
  iv: string;
  ct: string;
}

function b64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function unb64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** Lowercase hex of SHA-256 of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** `bytes` random bytes as base64url, for gateway keys and other bearer secrets. */
export function randomSecret(bytes = 32): string {
  return b64(crypto.getRandomValues(new Uint8Array(bytes))).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Constant-time equality of two strings. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

/**
 * A secrets key from its configured form: 32 bytes, base64. The key id is a short hash of the key,
 * so a sealed record names the key that opens it without revealing it.
 */
export async function importSecretsKey(base64Key: string): Promise<{ kid: string; key: CryptoKey }> {
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = unb64(base64Key.trim());
  } catch {
    throw new TypeError("SECRETS_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)");
  }
  if (raw.byteLength !== 32) throw new TypeError("SECRETS_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)");
  const kid = (await sha256Hex(`kid:${base64Key.trim()}`)).slice(0, 12);
  return { kid, key: await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]) };
}

/**
 * Seals `plaintext`. A fresh random 96-bit IV per seal: the key lives long and seals many records,
 * so an IV must never repeat under it. `context` is bound as additional data (the tenant name), so a
 * sealed record copied to another tenant does not open there.
 */
export async function seal(plaintext: string, k: { kid: string; key: CryptoKey }, context: string): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(context) }, k.key, encoder.encode(plaintext));
  return { kid: k.kid, iv: b64(iv), ct: b64(new Uint8Array(ct)) };
}

/** Opens a sealed record with whichever of `keys` sealed it; null when none did or it was tampered with. */
export async function open(sealed: Sealed, keys: { kid: string; key: CryptoKey }[], context: string): Promise<string | null> {
  const k = keys.find((x) => x.kid === sealed.kid);
  if (!k) return null;
  try {
    const pt = await crypto.subtle.decrypt({ name: "AES-GCM", iv: unb64(sealed.iv), additionalData: encoder.encode(context) }, k.key, unb64(sealed.ct));
    return decoder.decode(pt);
  } catch {
    return null;
  }
}
