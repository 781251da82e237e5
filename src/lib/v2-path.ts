/**
 * @module
 * The path of a pass-through call below `/v2`. The runtime has already resolved `.` and `..`
 * segments, so what is checked here are the tricks that survive parsing and could make the API (or
 * something in front of it) see another path: encoded slashes, backslashes and dots, empty
 * segments, control characters.
 */
import type { Result } from "./result";

const SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]+$/;
/** Encoded slash, backslash and dot, and every encoded control character (the URL parser never leaves a raw one). */
const FORBIDDEN_ESCAPE = /%(2f|5c|2e|[01][0-9a-f]|7f)/i;

/** The path below `/v2` (starting with `/`), or why it is refused. */
export function v2Path(pathname: string): Result<string, string> {
  const m = /^\/v2(\/.*)?$/i.exec(pathname);
  if (!m) return { ok: false, error: "The path must start with /v2/." };
  const rest = m[1] ?? "/";
  if (rest.includes("\\")) return { ok: false, error: "Backslashes are not allowed in the path." };
  if (FORBIDDEN_ESCAPE.test(rest)) return { ok: false, error: "Encoded slashes, backslashes, dots and control characters are not allowed in the path." };
  const segments = rest.slice(1).split("/");
  if (rest !== "/" && segments.some((s) => s === "" || s === "." || s === ".." || !SEGMENT.test(s))) {
    return { ok: false, error: "The path has an empty, dot or malformed segment." };
  }
  return { ok: true, value: rest };
}
