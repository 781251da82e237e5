/**
 * @module
 * Exact money. Amounts are integers of minor units (øre, cents): decimal strings from the shops are
 * parsed digit by digit, never through a float, so 0.1 + 0.2 never becomes 0.30000000000000004 on
 * an invoice. The API takes and answers decimal numbers with two places; `toDecimal` writes them.
 */

/** Currencies whose minor unit is the unit itself (Stripe sends their amounts without cents). */
const ZERO_DECIMAL = new Set([
  "BIF",
  "CLP",
  "DJF",
  "GNF",
  "JPY",
  "KMF",
  "KRW",
  "MGA",
  "PYG",
  "RWF",
  "UGX",
  "VND",
  "VUV",
  "XAF",
  "XOF",
  "XPF",
]);

/**
 * Minor units (hundredths) of a decimal amount: "199.9" → 19990, "-0.05" → -5, 12 → 1200.
 * More than two decimals are rounded half away from zero ("0.125" → 13), as shops and the API do.
 * @returns null when `value` is not a decimal number.
 */
export function toMinor(value: string | number): number | null {
  const text =
    typeof value === "number" ? (Number.isFinite(value) ? value.toFixed(6) : "") : value.trim();
  const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return null;
  const [, sign, whole = "0", frac = ""] = m;
  const cents = Number(whole) * 100 + Number((frac + "00").slice(0, 2));
  const roundUp = Number(frac[2] ?? "0") >= 5 ? 1 : 0;
  const n = cents + roundUp;
  if (!Number.isSafeInteger(n)) return null;
  return sign === "-" && n !== 0 ? -n : n;
}

/**
 * Minor units in one of the currency's smallest units: 100 for a zero-decimal currency (1 yen is
 * 100 minor units here), 1 otherwise (1 øre, 1 cent).
 * @example minorPerUnit("JPY") // 100
 */
export function minorPerUnit(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 100 : 1;
}

/** Minor units of a Stripe amount (integer in the currency's smallest unit). */
export function stripeMinor(amount: number, currency: string): number {
  return amount * minorPerUnit(currency);
}

/**
 * The API's decimal number for `minor` units: 19990 → 199.9. Exact for every safe integer of øre.
 */
export function toDecimal(minor: number): number {
  return Number(
    `${minor < 0 ? "-" : ""}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, "0")}`,
  );
}

/** "1 234.50"-free display form: 19990 → "199.90". */
export function formatMinor(minor: number): string {
  const abs = Math.abs(minor);
  return `${minor < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * `amount × numerator / denominator` in minor units, rounded half away from zero, in integers only
 * (no float): used to take VAT out of a gross amount and to share a refund between lines.
 */
export function mulDiv(amount: number, numerator: number, denominator: number): number {
  const p = BigInt(amount) * BigInt(numerator);
  const d = BigInt(denominator);
  const sign = p < 0n !== d < 0n ? -1n : 1n;
  const ap = p < 0n ? -p : p;
  const ad = d < 0n ? -d : d;
  const q = (ap * 2n + ad) / (ad * 2n);
  return Number(sign * q);
}
