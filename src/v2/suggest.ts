/**
 * @module
 * "Did you mean": the catalog path nearest to a path the catalog does not know, for the gateway's
 * 404 on `/v2` (`v2-operation.ts`). Paths are compared segment by segment, only against templates
 * with as many segments: a `{param}` takes any segment at no cost, a literal costs its edit
 * distance (case-insensitive, as the API matches). A template is a suggestion only when each of
 * its literals is within a third of its length (at least one edit) of the caller's segment, so
 * `/Custmers` finds `/Customers` but `/Zebrafish` finds nothing.
 */
import { CATALOG } from "../../shared/v2/catalog";

/** Every path template of the catalog, once, as segments. */
const TEMPLATES: readonly (readonly string[])[] = [...new Set(CATALOG.map((o) => o.path))].map(
  (p) => p.split("/").slice(1),
);

/** Levenshtein distance of `a` and `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** What `segments` cost against `template`, or null when one literal is too far off. */
function cost(segments: readonly string[], template: readonly string[]): number | null {
  let total = 0;
  for (const [i, literal] of template.entries()) {
    if (literal.startsWith("{")) continue;
    const d = distance((segments[i] ?? "").toLowerCase(), literal.toLowerCase());
    if (d > Math.max(1, Math.floor(literal.length / 3))) return null;
    total += d;
  }
  return total;
}

/**
 * The catalog path nearest to `path`, spelt as the catalog spells it, with the caller's own values
 * in place of its parameters; null when none is near.
 *
 * @param path below the v2 root, e.g. `/Custmers`
 * @returns e.g. `/Customers`
 * @example nearestPath("/SalesOrders/7/Linez") // "/SalesOrders/7/Lines"
 */
export function nearestPath(path: string): string | null {
  const segments = path.split("/").slice(1);
  let best: { template: readonly string[]; cost: number } | null = null;
  for (const template of TEMPLATES) {
    if (template.length !== segments.length) continue;
    const c = cost(segments, template);
    if (c !== null && c > 0 && (best === null || c < best.cost)) best = { template, cost: c };
  }
  if (!best) return null;
  return `/${best.template.map((s, i) => (s.startsWith("{") ? (segments[i] ?? s) : s)).join("/")}`;
}
