/**
 * @module
 * `V2_EXTRA_OPERATIONS`: operations let through `/v2` unchecked before the catalog lists them. An
 * unreadable entry is ignored, never fatal (a typo must not stop the Worker), and logged.
 */

export interface ExtraOperation {
  method: string;
  /** As written, e.g. `/NewThing/{id}`. */
  path: string;
  /** Matches a path below the v2 root, any casing. */
  pattern: RegExp;
}

export interface ExtraOperations {
  operations: readonly ExtraOperation[];
  ignored: readonly string[];
}

/** `METHOD /Path/{param}`: segments of unreserved characters, or one `{name}`. */
const ENTRY = /^(GET|POST|PUT|PATCH|DELETE)\s+((?:\/(?:[A-Za-z0-9\-._~]+|\{[A-Za-z0-9_]+\}))+)$/i;

/**
 * Parses `V2_EXTRA_OPERATIONS`.
 *
 * @example parseExtraOperations("GET /NewThing, POST /NewThing/{id}/Action").operations.length // 2
 */
export function parseExtraOperations(value: string | undefined): ExtraOperations {
  const operations: ExtraOperation[] = [];
  const ignored: string[] = [];
  for (const entry of (value ?? "").split(/[,\n]/)) {
    const text = entry.trim();
    if (text === "") continue;
    const m = ENTRY.exec(text);
    // A dot segment never reaches the check (`v2Path` refuses it), so it could never match.
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

/** The methods (upper case, each once) the operator's list lets through at `path`. */
export function extraMethodsAt(extra: ExtraOperations, path: string): string[] {
  const lower = path.toLowerCase();
  return [...new Set(extra.operations.filter((o) => o.pattern.test(lower)).map((o) => o.method))];
}
