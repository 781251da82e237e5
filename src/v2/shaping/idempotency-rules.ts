/** @module The pure rules of idempotent writes: keys, sameness, and which creates recover. */
import { sha256Hex } from "../../kernel/crypto";
import type { Result } from "../../kernel/result";

/** The longest key, characters (Stripe's limit). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The key in an `Idempotency-Key` header: 1–255 printable ASCII characters, quoted (IETF draft)
 * or bare (Stripe); the quotes are not part of the key.
 *
 * @example idempotencyKeyOf('"8e03978e-40d5-43e8"') // { ok: true, value: "8e03978e-40d5-43e8" }
 */
export function idempotencyKeyOf(header: string): Result<string, string> {
  const quoted = /^"(.*)"$/.exec(header);
  const key = quoted ? (quoted[1] ?? "") : header;
  if (key.length < 1 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key)) {
    return {
      ok: false,
      error: `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters; nothing was sent to the API.`,
    };
  }
  return { ok: true, value: key };
}

/** SHA-256 over `[method, target]` as JSON, then the body; not the headers (a retry may differ). */
export async function fingerprintOf(
  method: string,
  target: string,
  body: ArrayBuffer | null,
): Promise<string> {
  // A JSON array is self-delimiting, so no bytes can move between the parts.
  const head = new TextEncoder().encode(JSON.stringify([method, target]));
  const bytes = new Uint8Array(head.byteLength + (body?.byteLength ?? 0));
  bytes.set(head, 0);
  if (body) bytes.set(new Uint8Array(body), head.byteLength);
  return sha256Hex(bytes);
}

/** A create that can be looked up by its reference: the list to ask and the status to answer. */
export interface Recoverable {
  list: string;
  filter: string;
  reference: string;
  status: number;
}

/** Creates whose list filters on `externalImportReference` in the API's published document. */
export const RECOVERABLE_CREATES: Readonly<Record<string, Omit<Recoverable, "reference">>> = {
  "/customers": { list: "/Customers", filter: "externalImportReference", status: 201 },
  "/suppliers": { list: "/Suppliers", filter: "externalImportReference", status: 201 },
  "/employees": { list: "/Employees", filter: "externalImportReference", status: 201 },
  "/customdimensions": {
    list: "/CustomDimensions",
    filter: "externalImportReference",
    status: 201,
  },
};

/** The lookup for a `POST` to `RECOVERABLE_CREATES` with a top-level reference; else null. */
export function recoverableCreate(
  method: string,
  path: string,
  body: ArrayBuffer | null,
): Recoverable | null {
  const target = method === "POST" && body ? RECOVERABLE_CREATES[path.toLowerCase()] : undefined;
  if (!target || !body) return null;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
  const reference =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>).ExternalImportReference
      : undefined;
  return typeof reference === "string" && reference.length > 0 ? { ...target, reference } : null;
}
