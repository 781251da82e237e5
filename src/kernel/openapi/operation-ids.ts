/**
 * @module API v2 operation ids from method and path alone, stable while the operation exists:
 * `GET /Customers/{id}` is `getCustomersById`.
 */
import type { Operation } from "../../../shared/v2/catalog";

const pascal = (s: string) =>
  s
    .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())
    .replace(/^./, (c) => c.toUpperCase());

export function operationIdOf(op: Pick<Operation, "method" | "path">): string {
  const segments = op.path
    .split("/")
    .filter(Boolean)
    .map((s) => (s.startsWith("{") ? `By${pascal(s.slice(1, -1))}` : pascal(s)));
  return op.method.toLowerCase() + segments.join("");
}

/** `ids` made unique by a numeric suffix on the second and later of a kind, in catalog order. */
export function uniqueIds(ids: string[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id}${n}`;
  });
}
