/**
 * @module
 * New ids: a prefix and random letters and digits (no `.`, Standard Webhooks' separator).
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `n` random characters (the modulo bias of 256 % 62 is negligible). */
function randomChars(n: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
}

/** A new event id: `evt_` and 26 characters (≈ 154 bits). */
export const newEventId = (): string => `evt_${randomChars(26)}`;
/** A new endpoint id: `ep_` and 22 characters (≈ 131 bits). */
export const newEndpointId = (): string => `ep_${randomChars(22)}`;
