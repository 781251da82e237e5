/** @module Exact money: integers of minor units, parsed digit by digit, never through a float. */

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
 * Hundredths of a decimal amount: "199.9" → 19990, 12 → 1200; "0.125" → 13 (half away from zero,
 * as shops and the API round). Null when `value` is not a decimal number.
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

/** @example minorPerUnit("JPY") // 100 (1 yen is 100 minor units here) */
export function minorPerUnit(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 100 : 1;
}

export function stripeMinor(amount: number, currency: string): number {
  return amount * minorPerUnit(currency);
}

/** The API's decimal number for `minor` units: 19990 → 199.9, exact for every safe integer. */
export function toDecimal(minor: number): number {
  return Number(
    `${minor < 0 ? "-" : ""}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, "0")}`,
  );
}

/** For display: 19990 → "199.90". */
export function formatMinor(minor: number): string {
  const abs = Math.abs(minor);
  return `${minor < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** `amount × numerator / denominator`, rounded half away from zero, in integers only. */
export function mulDiv(amount: number, numerator: number, denominator: number): number {
  const p = BigInt(amount) * BigInt(numerator);
  const d = BigInt(denominator);
  const sign = p < 0n !== d < 0n ? -1n : 1n;
  const ap = p < 0n ? -p : p;
  const ad = d < 0n ? -d : d;
  const q = (ap * 2n + ad) / (ad * 2n);
  return Number(sign * q);
}
