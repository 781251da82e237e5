/**
 * @module
 * The path of a pass-through call below `/v2`. The runtime has already resolved `.` and `..`
 * segments, so what is checked here are the tricks that survive parsing and could make the API (or
 * something in front of it) see another path than the gateway checked: encoded slashes, backslashes
 * and dots, double encoding, empty segments, control characters.
 *
 * Percent-escapes of unreserved characters (letters, digits, `-`, `_`, `~`) are decoded first: RFC
 * 3986 §6.2.2.2 makes `/%43ustomers` and `/Customers` the same URI, and the API decodes them alike,
 * so the gateway must check (and validate the body for) the path the API will act on, not the
 * spelling it was sent in. Refusing them would also do, but over-encoding clients exist and the
 * normalised form is unambiguous. An encoded `%` is refused instead: `%252f` is `%2f` after one
 * decoding and `/` after two, and what it means depends on how many decoders stand in front of the
 * API. An encoded `.` stays refused too, since decoding it could make a dot segment.
 */
import type { Result } from "../kernel/result";

const SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]+$/;
/**
 * Encoded slash, backslash, dot and percent sign, and every encoded control character (the URL
 * parser never leaves a raw one).
 */
const FORBIDDEN_ESCAPE = /%(2f|5c|2e|25|[01][0-9a-f]|7f)/i;
/**
 * A `%` that does not start a two-hex-digit escape: read differently by different decoders, and
 * able to form an escape once its neighbours are decoded.
 */
const MALFORMED_ESCAPE = /%(?![0-9a-f]{2})/i;
/** Escapes of unreserved characters other than `.`: digits, letters, `-`, `_`, `~`. */
const UNRESERVED_ESCAPE = /%(3[0-9]|4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a]|2d|5f|7e)/gi;

/** The path below `/v2` (starting with `/`, unreserved escapes decoded), or why it is refused. */
export function v2Path(pathname: string): Result<string, string> {
  const m = /^\/v2(\/.*)?$/i.exec(pathname);
  if (!m) return { ok: false, error: "The path must start with /v2/." };
  const raw = m[1] ?? "/";
  if (raw.includes("\\")) return { ok: false, error: "Backslashes are not allowed in the path." };
  if (MALFORMED_ESCAPE.test(raw))
    return { ok: false, error: "A % in the path must start a percent-escape of two hex digits." };
  if (FORBIDDEN_ESCAPE.test(raw))
    return {
      ok: false,
      error:
        "Encoded slashes, backslashes, dots, percent signs and control characters are not allowed in the path.",
    };
  const rest = raw.replace(UNRESERVED_ESCAPE, (escape) =>
    String.fromCharCode(parseInt(escape.slice(1), 16)),
  );
  const segments = rest.slice(1).split("/");
  if (
    rest !== "/" &&
    segments.some((s) => s === "" || s === "." || s === ".." || !SEGMENT.test(s))
  ) {
    return { ok: false, error: "The path has an empty, dot or malformed segment." };
  }
  return { ok: true, value: rest };
}
