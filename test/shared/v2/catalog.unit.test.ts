/**
 * `matchOperation` against a scan of the whole catalog (the matcher before issue 26 looked only
 * at the operations that can match a path's first segment): the same operation, the same 405 and
 * the same 404 for every operation's path, in any casing, with a trailing slash, and for paths and
 * methods the catalog does not know.
 */
import { describe, expect, it } from "vitest";
import { CATALOG, matchOperation, type Operation } from "../../../shared/v2/catalog";

/** Literal segments before parameters, as the catalog ranks templates. */
const rank = (op: Operation) =>
  op.path
    .split("/")
    .slice(1)
    .map((s) => (s.startsWith("{") ? "1" : "0"))
    .join("");
const pattern = (op: Operation) =>
  new RegExp(
    `^/${op.path
      .split("/")
      .slice(1)
      .map((s) =>
        s.startsWith("{") ? "[^/]+" : s.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/")}/?$`,
  );
const RANKED = [...CATALOG].sort((a, b) => rank(a).localeCompare(rank(b)));

/** What a scan of every operation answers: the first template to match, then its methods. */
function scanned(method: string, path: string) {
  const lower = path.toLowerCase();
  const best = RANKED.find((op) => pattern(op).test(lower));
  if (!best) return { kind: "not-found" };
  const same = RANKED.filter((op) => op.path.toLowerCase() === best.path.toLowerCase());
  const hit = same.find((op) => op.method === method.toUpperCase());
  return hit
    ? { kind: "operation", key: hit.key }
    : { kind: "method-not-allowed", allow: same.map((op) => op.method) };
}

/** `matchOperation`'s answer in the scan's terms. */
function matched(method: string, path: string) {
  const m = matchOperation(method, path);
  return m.kind === "operation" ? { kind: m.kind, key: m.op.key } : m;
}

/** Each operation's path with every parameter filled in, as sent, upper-cased and with a `/`. */
const paths = CATALOG.flatMap((op) => {
  const sent = op.path.replace(/\{[^}]+\}/g, (_, i: number) => `p${i}`);
  return [sent, sent.toUpperCase(), `${sent}/`];
});
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "get", "OPTIONS"];

describe("matching a path to the catalog", () => {
  it("answers as a scan of the whole catalog for every operation's path and every method", () => {
    const differ = paths.flatMap((path) =>
      methods
        .filter(
          (method) =>
            JSON.stringify(matched(method, path)) !== JSON.stringify(scanned(method, path)),
        )
        .map((method) => `${method} ${path}`),
    );
    expect(differ).toEqual([]);
    // Not vacuous: every operation is found by its own method and path.
    for (const op of CATALOG) {
      const path = op.path.replace(/\{[^}]+\}/g, "x");
      expect(matchOperation(op.method, path).kind).toBe("operation");
    }
  });

  it("answers 404 and 405 as the scan does for paths the catalog does not know", () => {
    for (const path of [
      "/",
      "",
      "/Nope",
      "/customers/1/nope/2",
      "//Customers",
      "/Customer",
      "x/Customers",
    ])
      for (const method of methods)
        expect(matched(method, path), `${method} ${path}`).toEqual(scanned(method, path));
    expect(matchOperation("DELETE", "/VatCodes").kind).toBe("method-not-allowed");
  });

  it("keeps the caller's spelling of parameters", () => {
    const m = matchOperation("GET", "/Customers/AbC%20d");
    expect(m.kind).toBe("operation");
    if (m.kind === "operation") expect(Object.values(m.params)).toEqual(["AbC d"]);
  });
});
