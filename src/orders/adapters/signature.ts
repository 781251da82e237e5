/**
 * @module
 * HMAC-SHA256 for webhook signatures, WebCrypto only: `crypto.subtle.verify` compares in constant
 * time. The message is always the raw body bytes: re-encoding them would change what was signed.
 */

import { fromBase64, fromHex } from "../../kernel/crypto";

const encoder = new TextEncoder();

/** Longest signature header read, characters: a handful of signatures fit, a flood does not. */
export const MAX_SIGNATURE_HEADER_CHARS = 2_048;

/** UTF-8 bytes of `text`. @example utf8("a.") // Uint8Array [97, 46] */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The bytes of `parts` one after another (strings as UTF-8), the body never decoded. */
export function concatBytes(...parts: (string | Uint8Array)[]): Uint8Array<ArrayBuffer> {
  const chunks = parts.map((p) => (typeof p === "string" ? utf8(p) : p));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** An HMAC-SHA256 key: a string as its UTF-8 bytes; Standard Webhooks passes decoded bytes. */
export function hmacKey(key: string | Uint8Array, usage: "sign" | "verify"): Promise<CryptoKey> {
  const raw = typeof key === "string" ? utf8(key) : new Uint8Array(key);
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

/** HMAC-SHA256 of `message` under `key`, for signing (the console's session key, tests). */
export async function hmacSha256(
  key: string | Uint8Array,
  message: string | Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const k = await hmacKey(key, "sign");
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, concatBytes(message)));
}

/**
 * Whether any of `signatures` (several during a secret's rotation) is the HMAC-SHA256 of `message`
 * under `key`, each checked in constant time.
 */
export async function verifyHmac(
  key: string | Uint8Array,
  message: Uint8Array,
  signatures: Uint8Array[],
): Promise<boolean> {
  if (signatures.length === 0) return false;
  const k = await hmacKey(key, "verify");
  const data = new Uint8Array(message);
  let ok = false;
  // Every candidate is checked, so the time taken does not say which one (if any) matched.
  for (const sig of signatures) {
    if (await crypto.subtle.verify("HMAC", k, new Uint8Array(sig), data)) ok = true;
  }
  return ok;
}

/** Whether `signature` (base64; false if not) is the HMAC-SHA256 of `message` under `key`. */
export async function verifyBase64Hmac(
  key: string | Uint8Array,
  message: Uint8Array,
  signature: string,
): Promise<boolean> {
  const sig = signature.length <= MAX_SIGNATURE_HEADER_CHARS ? fromBase64(signature) : null;
  return sig !== null && verifyHmac(key, message, [sig]);
}

/** Whether any of `signatures` (hex; others skipped) is the HMAC-SHA256 of `message`. */
export async function verifyHexHmac(
  key: string | Uint8Array,
  message: Uint8Array,
  signatures: string[],
): Promise<boolean> {
  const sigs = signatures.map(fromHex).filter((s): s is Uint8Array<ArrayBuffer> => s !== null);
  return verifyHmac(key, message, sigs);
}
