/**
 * @module The `ExternalImportReference` of a run's writes (the API's only duplicate protection),
 * derived from source and shop ids, so a repeated step finds what an earlier attempt created.
 */
import type { Source } from "../orders/order";

const MAX_REFERENCE = 50;
const SHORT: Record<Source | "vipps", string> = {
  vipps: "vip",
  shopify: "shp",
  woocommerce: "woo",
  stripe: "str",
  standard: "std",
};

/** FNV-1a, 64-bit, as 16 hex digits: a short stable stand-in for an id. */
function fnv64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text))
    h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString(16).padStart(16, "0");
}

/** `lg:<source>:<kind>:<id>`, the id hashed past 50 characters or with a comma (a separator). */
export function reference(
  source: Source | "vipps",
  kind: "o" | "c" | "e" | "g" | "r" | "p" | "rp" | "po",
  id: string,
): string {
  const plain = `lg:${SHORT[source]}:${kind}:${id}`;
  return plain.length <= MAX_REFERENCE && !plain.includes(",")
    ? plain
    : `lg:${SHORT[source]}:${kind}:#${fnv64(id)}`;
}

/**
 * A guest buyer's customer reference from the e-mail and organization number, so two orders of
 * one new guest make one customer. Hashed: the e-mail is not written into another field.
 * @example guestReference("shopify", "kari@example.no", null) // "lg:shp:g:#…"
 */
export function guestReference(
  source: Source,
  email: string | null,
  orgNumber: string | null,
): string {
  return `lg:${SHORT[source]}:g:#${fnv64(`${orgNumber ?? ""}|${email?.trim().toLowerCase() ?? ""}`)}`;
}
