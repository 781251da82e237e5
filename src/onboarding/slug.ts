/** @module An onboarded client's slug: from its name, else its organization number. */

/** Longest base a slug is built from: room for a suffix within the 63 of `ClientSlug`. */
const MAX_BASE_CHARS = 50;
/** Numbered candidates tried before a random suffix. */
const NUMBERED_CANDIDATES = 20;

/** Letters plain NFKD does not take apart. */
const FOLDS: Record<string, string> = {
  æ: "ae",
  ø: "o",
  å: "a",
  ß: "ss",
  đ: "d",
  ð: "d",
  þ: "th",
  ł: "l",
  œ: "oe",
};

/**
 * The base slug: lowercase ASCII letters and digits joined by dashes.
 *
 * @example baseSlug("Fjørd & Sønner AS", null) // "fjord-sonner-as"
 * @example baseSlug("", "980386465") // "org-980386465"
 */
export function baseSlug(
  name: string | null | undefined,
  organizationNumber: string | null | undefined,
): string {
  const folded = (name ?? "")
    .toLowerCase()
    .replace(/[æøåßđðþłœ]/g, (ch) => FOLDS[ch] ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_BASE_CHARS)
    .replace(/^-+|-+$/g, "");
  if (folded) return folded;
  const digits = (organizationNumber ?? "").replace(/\D/g, "").slice(0, 20);
  return digits ? `org-${digits}` : "client";
}

/** The slugs to try in order: the base, `base-2` … `base-20`, then one with a random suffix. */
export function* slugCandidates(base: string): Generator<string> {
  yield base;
  for (let n = 2; n <= NUMBERED_CANDIDATES; n++) yield `${base}-${n}`;
  yield `${base}-${crypto.randomUUID().slice(0, 8)}`;
}
