/**
 * @module
 * The path of a pass-through call below `/v2`, refused when it could make the API see another path
 * than the gateway checked (encoded slashes, backslashes, dots or `%`, empty segments, control
 * characters). Unreserved escapes are decoded, so the gateway checks the path the API acts on.
 * See docs/design/v2-passthrough.md.
 */
import type { Result } from "../kernel/result";

const SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]+$/;
/** Encoded slash, backslash, dot, `%` and control characters (the parser leaves no raw one). */
const FORBIDDEN_ESCAPE = /%(2f|5c|2e|25|[01][0-9a-f]|7f)/i;
/** A `%` that starts no two-hex-digit escape: decoders disagree on it. */
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
