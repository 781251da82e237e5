/**
 * @module
 * The few WebCrypto operations the sandbox needs: random secrets and salted hashes, so that no
 * client key or access token is ever stored as itself.
 */
const encoder = new TextEncoder();

/** Hex of `bytes` random bytes. */
export function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buf, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** An opaque bearer token: 32 random bytes, base64url. */
export function randomToken(): string {
  const buf = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...buf))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/**
 * SHA-256 of `salt + value`, hex. A fast hash is right here: every hashed value is random and long.
 */
export async function saltedHash(salt: string, value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(salt + value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Constant-time equality of two strings of the same encoding. */
export function sameSecret(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}
