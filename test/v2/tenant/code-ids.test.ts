import { describe, expect, it } from "vitest";
import { CODE_IDS_FOR_MS, CodeIds } from "../../../src/v2/tenant/code-ids";
import { withTenantSql } from "../../helpers/storage";

const withSql = <R>(run: (sql: SqlStorage) => R | Promise<R>) => withTenantSql("code-ids", run);
const T0 = Date.parse("2026-03-01T10:00:00.000Z");

describe("code-ids: the tenant's code → id cache", () => {
  it("recalls the ids of the codes asked for, by kind, and nothing else", async () => {
    await withSql((sql) => {
      const c = new CodeIds(sql);
      c.remember(
        [
          { kind: "Department", code: "avd10", id: 21 },
          { kind: "Customer", code: "10001", id: 501 },
        ],
        T0,
      );
      expect(
        c.recall(
          [
            { kind: "Department", code: "avd10" },
            { kind: "Project", code: "avd10" },
            { kind: "Customer", code: "10002" },
          ],
          T0 + 1,
        ),
      ).toEqual([{ kind: "Department", code: "avd10", id: 21 }]);
      expect(c.recall([], T0)).toEqual([]);
    });
  });

  it("trusts an id for CODE_IDS_FOR_MS, then drops it at the next remember", async () => {
    await withSql((sql) => {
      const c = new CodeIds(sql);
      c.remember([{ kind: "Department", code: "a", id: 1 }], T0);
      expect(c.recall([{ kind: "Department", code: "a" }], T0 + CODE_IDS_FOR_MS - 1)).toHaveLength(
        1,
      );
      expect(c.recall([{ kind: "Department", code: "a" }], T0 + CODE_IDS_FOR_MS)).toHaveLength(0);
      c.remember([{ kind: "Department", code: "b", id: 2 }], T0 + CODE_IDS_FOR_MS);
      expect(sql.exec("SELECT code FROM code_ids").toArray()).toEqual([{ code: "b" }]);
    });
  });

  it("forgets every code of the kinds named, and keeps the other kinds'", async () => {
    await withSql((sql) => {
      const c = new CodeIds(sql);
      c.remember(
        [
          { kind: "Department", code: "a", id: 1 },
          { kind: "Department", code: "b", id: 2 },
          { kind: "Dim1", code: "a", id: 3 },
          { kind: "Customer", code: "10001", id: 4 },
        ],
        T0,
      );
      c.forgetKinds(["Department", "Dim1"]);
      c.forgetKinds([]);
      expect(sql.exec("SELECT kind, code FROM code_ids").toArray()).toEqual([
        { kind: "Customer", code: "10001" },
      ]);
    });
  });

  it("forgets the codes named, and clears all", async () => {
    await withSql((sql) => {
      const c = new CodeIds(sql);
      c.remember(
        [
          { kind: "Department", code: "a", id: 1 },
          { kind: "Department", code: "b", id: 2 },
        ],
        T0,
      );
      c.forget([{ kind: "Department", code: "a" }]);
      expect(
        c.recall(
          [
            { kind: "Department", code: "a" },
            { kind: "Department", code: "b" },
          ],
          T0,
        ),
      ).toEqual([{ kind: "Department", code: "b", id: 2 }]);
      c.clear();
      expect(c.recall([{ kind: "Department", code: "b" }], T0)).toEqual([]);
    });
  });
});
