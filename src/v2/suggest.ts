/**
 * @module
 * "Did you mean" for the gateway's 404 on `/v2`: the catalog template with as many segments whose
 * literals are each within a third of their length (at least one edit, any case) of the caller's.
 */
import { CATALOG } from "../../shared/v2/catalog";

const TEMPLATES: readonly (readonly string[])[] = [...new Set(CATALOG.map((o) => o.path))].map(
  (p) => p.split("/").slice(1),
);

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
 * The nearest catalog path, with the caller's own values for its parameters; null when none is.
 *
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
