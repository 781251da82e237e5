/** @module The `Prefer` request header (RFC 7240). */

/** One preference: its value (unquoted) and parameters, names lowercased. */
export interface Preference {
  value: string | null;
  params: Map<string, string | null>;
}

/**
 * The preferences by lowercased name, each as first given. Malformed parts are skipped: a
 * preference is a hint, never an error.
 *
 * @example parsePrefer('respond-async, Pages="all"; x=1').get("pages")?.value // "all"
 */
export function parsePrefer(header: string | null): Map<string, Preference> {
  const out = new Map<string, Preference>();
  for (const item of splitOutsideQuotes(header ?? "", ",")) {
    const [head = "", ...rest] = splitOutsideQuotes(item, ";");
    const first = pair(head);
    if (!first || out.has(first.name)) continue;
    const params = new Map<string, string | null>();
    for (const p of rest) {
      const kv = pair(p);
      if (kv && !params.has(kv.name)) params.set(kv.name, kv.value);
    }
    out.set(first.name, { value: first.value, params });
  }
  return out;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `name [= word]`; null when the name is not a token or the value is malformed. */
function pair(part: string): { name: string; value: string | null } | null {
  const eq = part.indexOf("=");
  const name = (eq < 0 ? part : part.slice(0, eq)).trim();
  if (!TOKEN.test(name)) return null;
  if (eq < 0) return { name: name.toLowerCase(), value: null };
  const raw = part.slice(eq + 1).trim();
  const value = raw.startsWith('"') ? unquote(raw) : TOKEN.test(raw) ? raw : raw === "" ? "" : null;
  return value === null ? null : { name: name.toLowerCase(), value };
}

/** A quoted-string's content, escapes undone; null unless `raw` is exactly one. */
function unquote(raw: string): string | null {
  let out = "";
  for (let i = 1; i < raw.length; i++) {
    const c = raw[i];
    if (c === "\\" && i + 1 < raw.length) out += raw[++i];
    else if (c === '"') return i === raw.length - 1 ? out : null;
    else out += c;
  }
  return null;
}

/** `s` split at `sep` outside quoted-strings. */
function splitOutsideQuotes(s: string, sep: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted && c === "\\") i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === sep) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}
