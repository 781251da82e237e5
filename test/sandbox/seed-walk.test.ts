/**
 * Walks the seed's whole endpoint list (`seed-endpoints.ts`, written out by hand from the issue
 * texts): every method and path it names resolves to an operation of the catalog and is served for
 * an authorized client; and the catalog holds nothing the list does not name.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CATALOG, matchOperation } from "../../shared/v2/catalog";
import { fresh, session } from "./helpers";
import { SEED_ENDPOINTS } from "./seed-endpoints";
import { requestFor, servedBy } from "./walk";

/** Every `METHOD /path` of the list. */
const PAIRS = Object.values(SEED_ENDPOINTS).flatMap((lines) =>
  lines.flatMap((line) => {
    const parts = line.split(" ");
    const path = parts.pop() as string;
    return parts.map((method) => `${method} ${path}`);
  }),
);

describe("the seed's endpoint list", () => {
  beforeAll(() => fresh());

  it(`names ${PAIRS.length} operations, each one an operation of the catalog, and the catalog no other`, () => {
    const unknown = PAIRS.filter((pair) => {
      const [method, path] = pair.split(" ") as [string, string];
      const m = matchOperation(method, path);
      return m.kind !== "operation" || m.op.key !== pair;
    });
    expect(unknown).toEqual([]);
    expect(new Set(PAIRS).size).toBe(PAIRS.length);
    expect(CATALOG.map((op) => op.key).filter((key) => !PAIRS.includes(key))).toEqual([]);
  });

  it("serves every one of them for an authorized client", async () => {
    const s = await session("demo");
    const unserved: string[] = [];
    for (const pair of PAIRS) {
      const [method, path] = pair.split(" ") as [string, string];
      const m = matchOperation(method, path);
      if (m.kind !== "operation") continue;
      const res = await s.api(...requestFor(m.op));
      if (!(await servedBy(res))) unserved.push(`${pair} → ${res.status}`);
    }
    expect(unserved).toEqual([]);
  });
});
