/**
 * @module
 * The pure rules of idempotent writes (`idempotency.ts`): which keys are accepted, what makes two
 * requests "the same", and which creates can be looked up by `ExternalImportReference` when their
 * outcome is unknown.
 */
import { sha256Hex } from "../../kernel/crypto";
import type { Result } from "../../kernel/result";

/** The longest key, characters (Stripe's limit; a UUID or a hash fits with room to spare). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The key in an `Idempotency-Key` header: 1–255 printable ASCII characters (space to `~`). The
 * IETF draft sends it as a structured-field string (`"…"`), Stripe bare: both are taken, the quotes
 * are not part of the key.
 *
 * @param header the header's value
 * @returns the key, or why it is refused
 * @example idempotencyKeyOf('"8e03978e-40d5-43e8-bc93-6894a57f9324"') // { ok: true, value: "8e03…"
 * }
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

/**
 * What makes two requests with one key the same request: SHA-256 (hex) over the method and the path
 * with its query (as a JSON array), then the body's bytes. Headers are not part of it (a retry may
 * differ in them).
 *
 * @param method upper-case method
 * @param target the path below the v2 root with its `?query`, as sent
 * @param body the body's bytes, or null
 */
export async function fingerprintOf(
  method: string,
  target: string,
  body: ArrayBuffer | null,
): Promise<string> {
  // A JSON array is self-delimiting (its strings escape every newline), so no bytes can move
  // between the parts.
  const head = new TextEncoder().encode(JSON.stringify([method, target]));
  const bytes = new Uint8Array(head.byteLength + (body?.byteLength ?? 0));
  bytes.set(head, 0);
  if (body) bytes.set(new Uint8Array(body), head.byteLength);
  return sha256Hex(bytes);
}

/**
 * A create that can be looked up by its reference: the list to ask and the status a create answers.
 */
export interface Recoverable {
  /** The list path, e.g. `/Customers`. */
  list: string;
  /** The list's filter parameter for the reference. */
  filter: string;
  reference: string;
  /** What the create answers (the recovered record is answered with it). */
  status: number;
}

/**
 * Creates whose list filters on `externalImportReference` in the API's published document (and in
 * the sandbox). Others, e.g. `POST /SalesOrders/Complete` (whose list filter on it is not in the
 * published document) or vouchers (no such filter), are not looked up: their unknown outcome stays
 * unknown.
 */
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

/**
 * The lookup for a `POST` whose JSON body has a top-level `ExternalImportReference`, in a
 * collection of `RECOVERABLE_CREATES`; else null.
 */
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
