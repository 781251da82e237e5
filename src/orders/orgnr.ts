/**
 * @module
 * Norwegian organization numbers: nine digits, the last a MOD11 check digit, written many ways in
 * shops' free-text fields. Only a valid number may pick EHF delivery, so the check is strict.
 */

/** MOD11 weights of digits 1–8 (Brønnøysundregistrene). */
const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const;

/**
 * The nine digits of an organization number as a shop gave it (`NO`…`MVA`, spaces, dots or dashes
 * allowed), or null when it cannot be one. Does not check MOD11.
 *
 * @example normalizeOrgNumber("NO 123456785 MVA") // "123456785"
 * @example normalizeOrgNumber("12345678") // null
 */
export function normalizeOrgNumber(raw: string): string | null {
  const text = raw
    .trim()
    .toUpperCase()
    .replace(/^NO(?=[\s\d])/, "")
    .replace(/MVA$/, "");
  if (!/^[\d\s.-]+$/.test(text)) return null;
  const digits = text.replace(/[\s.-]/g, "");
  return /^\d{9}$/.test(digits) ? digits : null;
}

/**
 * Whether `digits` is nine digits whose last is the MOD11 check digit of the first eight.
 *
 * @example isValidOrgNumber("123456785") // true
 */
export function isValidOrgNumber(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  return checkDigit(digits.slice(0, 8)) === Number(digits[8]);
}

/**
 * The MOD11 check digit of eight digits (r = Σ dᵢ·wᵢ mod 11; 0 if r = 0, else 11 − r), or null
 * when it would be 10 (no valid number starts so).
 *
 * @example checkDigit("12345678") // 5
 */
export function checkDigit(first8: string): number | null {
  if (!/^\d{8}$/.test(first8)) return null;
  const sum = WEIGHTS.reduce((s, w, i) => s + w * Number(first8[i]), 0);
  const r = sum % 11;
  const check = r === 0 ? 0 : 11 - r;
  return check === 10 ? null : check;
}

/**
 * Whether a checkout field's name looks like it holds an organization number ("org_nr",
 * "organisasjonsnummer", "VAT number", "MVA-nummer"…): plugins name it freely.
 */
export function isOrgNumberField(name: string): boolean {
  const letters = name.toLowerCase().replace(/[^a-zæøå]/g, "");
  return /org(ani[sz]ations?|anisasjons)?(nr|no|num|number|nummer)|foretaksnummer|(vat|mva)(nr|no|number|nummer|id)/.test(
    letters,
  );
}
