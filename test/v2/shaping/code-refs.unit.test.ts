import { describe, expect, it } from "vitest";
import { ManualVoucherPost } from "../../../shared/v2/vouchers";
import {
  CODE_REFS,
  codeKey,
  distinctCodes,
  kindsListedAt,
  LOOKUPS_IN_FLIGHT,
  placeholderIds,
  lookupBatches,
  lookupSearch,
  resolveSites,
  type CodeDeps,
  type CodeId,
  type CodeKey,
  type Target,
} from "../../../src/v2/shaping/code-refs";
import { codeSchema, findSites } from "../../../src/v2/shaping/code-sites";

/** Deps over an in-memory book: `books[kind]` maps a code (as the API matches it) to an id. */
function fakeDeps(books: Record<string, Record<string, number>>, cache: CodeId[] = []) {
  const lookups: { kind: string; codes: string[] }[] = [];
  const remembered: CodeId[] = [];
  const deps: CodeDeps = {
    recall: async (keys: CodeKey[]) =>
      cache.filter((c) => keys.some((k) => k.kind === c.kind && k.code === c.code)),
    lookup: async (target: Target, codes: string[]) => {
      lookups.push({ kind: target.kind, codes });
      const book = books[target.kind] ?? {};
      const rows = Object.entries(book)
        .filter(([code]) => codes.some((c) => c.toLowerCase() === code.toLowerCase()))
        .map(([code, id]) => ({
          Id: id,
          [target.match]: target.value === "number" ? Number(code) : code,
        }));
      return { ok: true, rows };
    },
    remember: async (found) => {
      remembered.push(...found);
    },
  };
  return { deps, lookups, remembered };
}

const schema = (method: "POST" | "PATCH", path: string) => {
  const s = codeSchema(method, path);
  if (!s) throw new Error(`no schema for ${method} ${path}`);
  return s;
};

describe("the code table", () => {
  it("names each code field once, each with a lookup filter", () => {
    const codes = CODE_REFS.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const r of CODE_REFS) expect(r.target.filter).toMatch(/^[a-z][A-Za-z]+$/);
  });

  it("builds one lookup query per batch, with Fields and a page size for every code", () => {
    const dept = CODE_REFS.find((r) => r.code === "DepartmentCode")?.target as Target;
    expect(lookupSearch(dept, ["A", "B"])).toBe("?codes=A%2CB&Fields=Id%2CCode&PageSize=2");
    const dim2 = CODE_REFS.find((r) => r.code === "Dim2Code")?.target as Target;
    expect(new URLSearchParams(lookupSearch(dim2, ["X"])).get("ordinal")).toBe("2");
    const batches = lookupBatches(Array.from({ length: 120 }, (_, i) => `C${i}`));
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
    expect(lookupBatches(["x".repeat(1000), "y".repeat(1000)])).toHaveLength(2);
  });

  it("normalizes codes and numbers, and says what is wrong with a bad one", () => {
    expect(codeKey({ value: "number" }, "10001")).toMatchObject({ ok: true, key: "10001" });
    expect(codeKey({ value: "number" }, 3000)).toMatchObject({ ok: true, key: "3000" });
    expect(codeKey({ value: "number" }, "10000-11000").ok).toBe(false);
    expect(codeKey({ value: "number" }, 1.5).ok).toBe(false);
    expect(codeKey({ value: "code" }, " Avd10 ")).toMatchObject({
      ok: true,
      key: "avd10",
      spelling: "Avd10",
    });
    expect(codeKey({ value: "code" }, "A,B")).toMatchObject({
      ok: false,
      message: expect.stringContaining("comma"),
    });
    expect(codeKey({ value: "code" }, 7).ok).toBe(false);
  });
});

describe("where codes apply", () => {
  it("in a POST, only codes the schema lacks while it has the Id: voucher lines, not a sales order's CustomerNo", () => {
    const voucher = {
      CurrencyCode: "NOK",
      VoucherDate: "2026-01-01",
      VoucherLines: [
        { AccountNo: 3000, DepartmentCode: "A" },
        { AccountId: 5, AccountNo: 1920 },
      ],
    };
    const found = findSites(voucher, schema("POST", "/Vouchers/ManualJournals"), "post");
    expect(found.sites.map((s) => s.path)).toEqual([
      "VoucherLines.0.DepartmentCode",
      "VoucherLines.0.AccountNo",
    ]);
    // Id wins: the code beside it is dropped without a lookup.
    expect(voucher.VoucherLines[1]).toEqual({ AccountId: 5 });
    const order = { CustomerNo: 10001, SalesOrderLines: [{ ProductCode: "P1", Quantity: 1 }] };
    expect(findSites(order, schema("POST", "/SalesOrders/Complete"), "post")).toMatchObject({
      sites: [],
      changed: false,
    });
  });

  it("in a merge patch, every code whose Id the resource has; a null code clears the Id", () => {
    const doc: Record<string, unknown> = {
      DepartmentCode: null,
      SalesPersonEmployeeNumber: 501,
      Name: "x",
    };
    const found = findSites(doc, schema("PATCH", "/Customers/17"), "merge");
    expect(found.sites.map((s) => s.path)).toEqual(["SalesPersonEmployeeNumber"]);
    expect(doc).toEqual({ SalesPersonEmployeeNumber: 501, Name: "x", DepartmentId: null });
    const order = findSites(
      { CustomerNo: 10001, ProjectCode: "P" },
      schema("PATCH", "/SalesOrders/4f0c8a52-2b1e-4a53-9d3c-1e2f3a4b5c6d"),
      "merge",
    );
    expect(order.sites.map((s) => s.ref.id).sort()).toEqual(["CustomerId", "ProjectId"]);
  });

  it("never where the field is the record's own (an account's AccountNo), and reports malformed codes by path", () => {
    expect(
      findSites(
        { AccountNo: 3000, Name: "Salg" },
        schema("PATCH", "/GeneralLedgerAccounts/9"),
        "merge",
      ),
    ).toMatchObject({ sites: [], changed: false });
    const bad = findSites(
      { VoucherLines: [{ AccountNo: "3000-4000" }] },
      ManualVoucherPost,
      "post",
    );
    expect(bad.errors).toEqual([
      { path: "VoucherLines.0.AccountNo", message: expect.stringContaining("whole number") },
    ]);
  });
});

describe("resolving", () => {
  it("looks each kind up once for all its codes, swaps codes for ids, and remembers them", async () => {
    const body = {
      VoucherLines: [
        { AccountNo: 3000, DepartmentCode: "a" },
        { AccountNo: "1920", DepartmentCode: "A" },
        { AccountNo: 3000, DepartmentCode: "B" },
      ],
    };
    const { deps, lookups, remembered } = fakeDeps({
      GeneralLedgerAccount: { "3000": 11, "1920": 12 },
      Department: { A: 21, B: 22 },
    });
    const found = findSites(body, ManualVoucherPost, "post");
    const res = await resolveSites(found.sites, deps);
    expect(res).toEqual({ kind: "done", cached: [] });
    expect(lookups).toHaveLength(2);
    expect(lookups).toEqual(
      expect.arrayContaining([
        { kind: "GeneralLedgerAccount", codes: ["3000", "1920"] },
        { kind: "Department", codes: ["a", "B"] },
      ]),
    );
    expect(body.VoucherLines).toEqual([
      { AccountId: 11, DepartmentId: 21 },
      { AccountId: 12, DepartmentId: 21 },
      { AccountId: 11, DepartmentId: 22 },
    ]);
    expect(remembered).toHaveLength(4);
  });

  it("asks the API only for codes the cache does not hold, and reports those it answered", async () => {
    const body = { VoucherLines: [{ AccountNo: 3000, DepartmentCode: "A" }] };
    const { deps, lookups } = fakeDeps({ Department: { A: 21 } }, [
      { kind: "GeneralLedgerAccount", code: "3000", id: 11 },
    ]);
    const res = await resolveSites(findSites(body, ManualVoucherPost, "post").sites, deps);
    expect(res).toEqual({ kind: "done", cached: [{ kind: "GeneralLedgerAccount", code: "3000" }] });
    expect(lookups.map((l) => l.kind)).toEqual(["Department"]);
    expect(body.VoucherLines[0]).toEqual({ AccountId: 11, DepartmentId: 21 });
  });

  it("fails the whole body on an unknown code, naming its path and the code, and changes nothing", async () => {
    const body = { VoucherLines: [{ AccountNo: 3000 }, { AccountNo: 4999 }] };
    const { deps } = fakeDeps({ GeneralLedgerAccount: { "3000": 11 } });
    const res = await resolveSites(findSites(body, ManualVoucherPost, "post").sites, deps);
    expect(res).toEqual({
      kind: "unknown",
      errors: [
        {
          path: "VoucherLines.1.AccountNo",
          message: "No general ledger account has AccountNo '4999'.",
        },
      ],
    });
    expect(body.VoucherLines[0]).toEqual({ AccountNo: 3000 });
  });

  it("starts no lookup after one is refused: of 6 batches, at most LOOKUPS_IN_FLIGHT are asked", async () => {
    let asked = 0;
    const deps: CodeDeps = {
      recall: async () => [],
      lookup: async () => {
        asked++;
        return { ok: false, response: new Response("{}", { status: 403 }) };
      },
      remember: async () => undefined,
    };
    const body = { VoucherLines: Array.from({ length: 300 }, (_, i) => ({ AccountNo: 5000 + i })) };
    const res = await resolveSites(findSites(body, ManualVoucherPost, "post").sites, deps);
    expect(res.kind).toBe("refused");
    expect(asked).toBeLessThanOrEqual(LOOKUPS_IN_FLIGHT);
  });

  it("counts distinct codes by kind, and puts placeholder ids where the codes were", () => {
    const body = {
      VoucherLines: [
        { AccountNo: 3000, DepartmentCode: "a" },
        { AccountNo: "3000", DepartmentCode: "A" },
        { AccountNo: 1920, DepartmentCode: "b" },
      ],
    };
    const { sites } = findSites(body, ManualVoucherPost, "post");
    expect(distinctCodes(sites)).toBe(4);
    placeholderIds(sites);
    expect(body.VoucherLines[0]).toEqual({ AccountId: 1, DepartmentId: 1 });
  });

  it("passes a lookup's refusal back as the API gave it", async () => {
    const refusal = new Response("{}", { status: 403 });
    const deps: CodeDeps = {
      recall: async () => [],
      lookup: async () => ({ ok: false, response: refusal }),
      remember: async () => undefined,
    };
    const res = await resolveSites(
      findSites({ VoucherLines: [{ AccountNo: 3000 }] }, ManualVoucherPost, "post").sites,
      deps,
    );
    expect(res).toEqual({ kind: "refused", response: refusal });
  });
});

describe("kindsListedAt", () => {
  it("names the kinds looked up in the list a write's first segment names, in any casing", () => {
    expect(kindsListedAt("/Departments")).toEqual(["Department"]);
    expect(kindsListedAt("/departments/7")).toEqual(["Department"]);
    expect(kindsListedAt("/CustomDimensions/3")).toEqual(["Dim1", "Dim2", "Dim3"]);
    expect(kindsListedAt("/Customers/5/ContactPersons")).toEqual(["Customer"]);
    expect(kindsListedAt("/SalesOrders/Complete")).toEqual([]);
    expect(kindsListedAt("/Departmentsx")).toEqual([]);
  });
});
