/**
 * @module
 * The references a run writes into the API, derived from tenant-independent facts (source, shop
 * ids) so that a repeated step finds what an earlier attempt created: the API's only duplicate
 * protection is `ExternalImportReference` (at most 50 characters), so every write carries one.
 */
import type { Source } from "../orders/order";

/** The API's limit on ExternalImportReference. */
const MAX_REFERENCE = 50;
const SHORT: Record<Source, string> = {
  shopify: "shp",
  woocommerce: "woo",
  stripe: "str",
  standard: "std",
};

/** FNV-1a, 64-bit, as 16 hex digits: a short stable stand-in for an id too long to fit. */
function fnv64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text))
    h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString(16).padStart(16, "0");
}

/**
 * `lg:<source>:<kind>:<id>`, or the id hashed when the whole would pass 50 characters, or when it
 * holds a comma: the API's list filters (`externalImportReferences=`) read a comma as a separator,
 * so a reference with one could not be looked up.
 */
export function reference(
  source: Source,
  kind: "o" | "c" | "e" | "g" | "r" | "p" | "rp" | "po",
  id: string,
): string {
  const plain = `lg:${SHORT[source]}:${kind}:${id}`;
  return plain.length <= MAX_REFERENCE && !plain.includes(",")
    ? plain
    : `lg:${SHORT[source]}:${kind}:#${fnv64(id)}`;
}

/**
 * The reference of a guest buyer's customer, from what the buyer typed: the same e-mail (lower
 * case) and organization number give the same reference, on any order. Two orders of one new guest,
 * even at the same moment, then post the same reference, and the API refuses the second customer
 * (its only duplicate check): one customer, found by the reference. Always hashed: the e-mail is
 * not written into another field.
 * @example guestReference("shopify", "kari@example.no", null) // "lg:shp:g:#…"
 */
export function guestReference(
  source: Source,
  email: string | null,
  orgNumber: string | null,
): string {
  return `lg:${SHORT[source]}:g:#${fnv64(`${orgNumber ?? ""}|${email?.trim().toLowerCase() ?? ""}`)}`;
}
