/**
 * @module
 * Standard Webhooks signing (v1, symmetric): `whsec_` secrets and HMAC-SHA256 signatures of
 * `{webhook-id}.{webhook-timestamp}.{body}`; the tests verify them with `standardwebhooks`.
 */
import { fromBase64, toBase64 } from "../kernel/crypto";

export const SECRET_PREFIX = "whsec_";
/** Random bytes in a new secret (the spec asks for 24 to 64). */
const SECRET_BYTES = 32;

export function newEndpointSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The key bytes of a `whsec_` secret, or null when it is not one. */
export function secretBytes(secret: string): Uint8Array<ArrayBuffer> | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const bytes = fromBase64(secret.slice(SECRET_PREFIX.length));
  return bytes && bytes.byteLength >= 24 && bytes.byteLength <= 64 ? bytes : null;
}

/**
 * The `webhook-signature` value for `body` sent as `id` at `timestamp` (unix seconds): one
 * `v1,<base64>` per secret (both sign during a rotation), space-separated.
 *
 * @example await signatureHeader(["whsec_…"], "evt_…", 1767225600, '{"type":…}')
 */
export async function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const content = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const raw = secretBytes(secret);
      if (!raw) throw new TypeError("not a whsec_ secret");
      const key = await crypto.subtle.importKey(
        "raw",
        raw,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      return `v1,${toBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, content)))}`;
    }),
  );
  return signatures.join(" ");
}
