/**
 * @module
 * `V2_EXTRA_OPERATIONS`: the operations an operator lets through `/v2` although the catalog
 * (`shared/v2/catalog.ts`) does not list them yet. The live API grows ahead of any release of the
 * gateway; this list lets a new operation be used the day it appears, passed on unchanged and
 * unchecked, without a deploy of new code.
 *
 * The value is a list of `METHOD /Path/{param}` separated by commas or new lines, written as the
 * API documents the path (`GET /NewThing, POST /NewThing/{id}/Action`). Paths match as the
 * catalog's do: any casing, `{…}` standing for one segment. An entry that is not of that form is
 * ignored, never fatal (a typo must not stop the Worker), and kept in `ignored` so a refusal can
 * log it for the operator.
 */

/** One operation the operator lets through. */
export interface ExtraOperation {
  /** Upper case. */
  method: string;
  /** As written, e.g. `/NewThing/{id}`. */
  path: string;
  /** Matches a path below the v2 root, any casing. */
  pattern: RegExp;
}

/** The parsed list, and the entries that could not be read. */
export interface ExtraOperations {
  operations: readonly ExtraOperation[];
  ignored: readonly string[];
}

/** `METHOD /Path/{param}`: segments of unreserved characters, or one `{name}`. */
const ENTRY = /^(GET|POST|PUT|PATCH|DELETE)\s+((?:\/(?:[A-Za-z0-9\-._~]+|\{[A-Za-z0-9_]+\}))+)$/i;

/**
 * Parses `V2_EXTRA_OPERATIONS`.
 *
 * @param value the var as set, or undefined when unset
 * @returns the operations, and the entries ignored because they are not `METHOD /Path`
 * @example parseExtraOperations("GET /NewThing, POST /NewThing/{id}/Action").operations.length // 2
 */
export function parseExtraOperations(value: string | undefined): ExtraOperations {
  const operations: ExtraOperation[] = [];
  const ignored: string[] = [];
  for (const entry of (value ?? "").split(/[,\n]/)) {
    const text = entry.trim();
    if (text === "") continue;
    const m = ENTRY.exec(text);
    // A dot segment never reaches the check (`v2-path.ts` refuses it), so it could never match.
    if (!m?.[1] || !m[2] || /\/\.{1,2}(\/|$)/.test(m[2])) {
      ignored.push(text);
      continue;
    }
    const source = m[2]
      .split("/")
      .slice(1)
      .map((s) =>
        s.startsWith("{") ? "[^/]+" : s.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/");
    operations.push({
      method: m[1].toUpperCase(),
      path: m[2],
      pattern: new RegExp(`^/${source}$`),
    });
  }
  return { operations, ignored };
}

/**
 * The methods the operator's list lets through at `path`.
 *
 * @param extra the parsed `V2_EXTRA_OPERATIONS`
 * @param path below the v2 root, as `v2Path` checked it
 * @returns upper-case methods, each once
 */
export function extraMethodsAt(extra: ExtraOperations, path: string): string[] {
  const lower = path.toLowerCase();
  return [...new Set(extra.operations.filter((o) => o.pattern.test(lower)).map((o) => o.method))];
}
