/**
 * Codes for ids through `/v2`: a DepartmentCode, CustomerNo or AccountNo lands as the right Id, one
 * lookup per kind, cached per tenant; an unknown code is a 400 naming the field, with no write.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/kernel/config";
import { control, fresh, json, stats, tenant } from "../../helpers/gateway";

beforeEach(() => fresh());

const TENANT = (env as unknown as Pick<Bindings, "TENANT">).TENANT;

type Tenant = Awaited<ReturnType<typeof tenant>>;
const merge = (body: unknown): RequestInit => ({
  method: "PATCH",
  headers: { "content-type": "application/merge-patch+json" },
  body: JSON.stringify(body),
});
const requests = async () => (await stats()).requests;

async function created<T = { Id: number }>(t: Tenant, path: string, body: unknown): Promise<T> {
  const res = await t.v2(path, json(body));
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as T;
}

describe("codes for ids: happy", () => {
  it("a DepartmentCode in a merge patch lands as the department's Id: one lookup, then none while cached", async () => {
    const t = await tenant();
    const sales = await created(t, "/Departments", { Code: "AVD10", Name: "Salg" });
    await created(t, "/Departments", { Code: "AVD20", Name: "Lager" });
    const c = await created(t, "/Customers", { Name: "Fjord AS" });
    let n = await requests();
    const res = await t.v2(`/Customers/${c.Id}`, merge({ DepartmentCode: "avd10" }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await requests()) - n).toBe(2);
    expect(await (await t.v2(`/Customers/${c.Id}`)).json()).toMatchObject({
      DepartmentId: sales.Id,
      DepartmentCode: "AVD10",
    });
    n = await requests();
    expect(
      (
        await t.v2(
          `/Customers/${c.Id}`,
          merge({ DepartmentCode: "AVD10", Name: "Fjord Holding AS" }),
        )
      ).status,
    ).toBe(200);
    expect((await requests()) - n).toBe(1);
  });

  it("a CustomerNo lands as the customer's Id, and a null code clears the reference", async () => {
    const t = await tenant();
    const first = await created<{ Id: number; Number: number }>(t, "/Customers", {
      Name: "Fjord AS",
    });
    const second = await created<{ Id: number; Number: number }>(t, "/Customers", {
      Name: "Vik AS",
    });
    const dept = await created(t, "/Departments", { Code: "P", Name: "Prosjekt" });
    const project = await created(t, "/Projects", {
      Code: "P1",
      Name: "Bygg",
      CustomerId: first.Id,
      DepartmentId: dept.Id,
    });
    const n = await requests();
    const res = await t.v2(
      `/Projects/${project.Id}`,
      merge({ CustomerNo: second.Number, DepartmentCode: null }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await requests()) - n).toBe(2);
    expect(await (await t.v2(`/Projects/${project.Id}`)).json()).toMatchObject({
      CustomerId: second.Id,
      CustomerNo: second.Number,
      DepartmentId: null,
    });
  });

  it("voucher lines in a POST take AccountNo for AccountId: one lookup for both accounts", async () => {
    const t = await tenant();
    const accounts = (await (
      await t.v2("/GeneralLedgerAccounts?accountNos=1900,1920&Fields=Id,AccountNo")
    ).json()) as { Id: number; AccountNo: number }[];
    const idOf = (no: number) => accounts.find((a) => a.AccountNo === no)?.Id;
    const n = await requests();
    const line = (AccountNo: number, CurrencyAmount: number) => ({
      AccountNo,
      CurrencyAmount,
      PostingDate: "2026-01-15",
      VatId: 1,
    });
    const res = await t.v2(
      "/Vouchers/ManualJournals",
      json({
        CurrencyCode: "NOK",
        VoucherDate: "2026-01-15",
        VoucherLines: [line(1920, 100), line(1900, -100)],
      }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await requests()) - n).toBe(2);
    const voucher = (await res.json()) as { VoucherLines: { AccountId: number }[] };
    expect(voucher.VoucherLines.map((l) => l.AccountId)).toEqual([idOf(1920), idOf(1900)]);
  });

  it("an Id given beside its code wins: the code is dropped without a lookup", async () => {
    const t = await tenant();
    const dept = await created(t, "/Departments", { Code: "AVD10", Name: "Salg" });
    const c = await created(t, "/Customers", { Name: "Fjord AS" });
    const n = await requests();
    expect(
      (
        await t.v2(
          `/Customers/${c.Id}`,
          merge({ DepartmentId: dept.Id, DepartmentCode: "NO-SUCH-CODE" }),
        )
      ).status,
    ).toBe(200);
    expect((await requests()) - n).toBe(1);
  });

  it("a POST body that names no code the schema lacks is sent as it came (a sales order's CustomerNo is the API's to resolve)", async () => {
    const t = await tenant();
    const c = await created<{ Id: number; Number: number }>(t, "/Customers", { Name: "Fjord AS" });
    const n = await requests();
    const res = await t.v2(
      "/SalesOrders/Complete",
      json({
        CustomerNo: c.Number,
        SalesOrderLines: [{ Description: "Timer", Quantity: 1, ProductUnitPrice: 100 }],
      }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await requests()) - n).toBe(1);
    expect(await res.json()).toMatchObject({ CustomerId: c.Id });
  });
});

describe("codes for ids: unknown or malformed codes", () => {
  it("an unknown code is a 400 naming the field and the code; only the lookup went upstream, nothing was written", async () => {
    const t = await tenant();
    const c = await created(t, "/Customers", { Name: "Fjord AS" });
    const n = await requests();
    const res = await t.v2(
      `/Customers/${c.Id}`,
      merge({ Name: "Changed", DepartmentCode: "NOPE" }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await res.json()) as {
      type: string;
      detail: string;
      errors: { path: string; message: string }[];
    };
    expect(problem.type).toBe("https://ledgergate.dev/problems/validation-failed");
    expect(problem.errors).toEqual([
      { path: "DepartmentCode", message: "No department has Code 'NOPE'." },
    ]);
    expect(problem.detail).toContain("NOPE");
    expect((await requests()) - n).toBe(1);
    expect(await (await t.v2(`/Customers/${c.Id}`)).json()).toMatchObject({ Name: "Fjord AS" });
  });

  it("names the path of a code in a nested line", async () => {
    const t = await tenant();
    const n = await requests();
    const line = (AccountNo: number | string, CurrencyAmount: number) => ({
      AccountNo,
      CurrencyAmount,
      PostingDate: "2026-01-15",
      VatId: 1,
    });
    const unknown = await t.v2(
      "/Vouchers/ManualJournals",
      json({
        CurrencyCode: "NOK",
        VoucherDate: "2026-01-15",
        VoucherLines: [line(1920, 100), line(1234, -100)],
      }),
    );
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { errors: unknown[] }).errors).toEqual([
      {
        path: "VoucherLines.1.AccountNo",
        message: "No general ledger account has AccountNo '1234'.",
      },
    ]);
    expect((await requests()) - n).toBe(1);
    const malformed = await t.v2(
      "/Vouchers/ManualJournals",
      json({
        CurrencyCode: "NOK",
        VoucherDate: "2026-01-15",
        VoucherLines: [line("1900-1920", 100)],
      }),
    );
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { errors: { path: string }[] }).errors[0]?.path).toBe(
      "VoucherLines.0.AccountNo",
    );
    expect((await requests()) - n).toBe(1);
  });
});

describe("codes for ids: the cache", () => {
  it("a cached id the API refuses (the record is gone) is forgotten: the next call looks the code up again", async () => {
    const t = await tenant();
    const dept = await created(t, "/Departments", { Code: "AVD10", Name: "Salg" });
    const c = await created(t, "/Customers", { Name: "Fjord AS" });
    expect((await t.v2(`/Customers/${c.Id}`, merge({ DepartmentCode: "AVD10" }))).status).toBe(200);
    expect((await t.v2(`/Customers/${c.Id}`, merge({ DepartmentCode: null }))).status).toBe(200);
    expect((await t.v2(`/Departments/${dept.Id}`, { method: "DELETE" })).status).toBe(200);
    // That delete went through the gateway, which forgot the department codes; a delete made in the
    // accounting UI would not have: the pair is put back as it would have stayed.
    await runInDurableObject(TENANT.get(TENANT.idFromName(t.name)), (_i, state) => {
      state.storage.sql.exec(
        "INSERT INTO code_ids (kind, code, id, seen_at) VALUES ('Department', 'avd10', ?, ?)",
        dept.Id,
        Date.now(),
      );
    });
    let n = await requests();
    const stale = await t.v2(`/Customers/${c.Id}`, merge({ DepartmentCode: "AVD10" }));
    expect(stale.status).toBe(404);
    expect((await requests()) - n).toBe(1);
    n = await requests();
    const again = await t.v2(`/Customers/${c.Id}`, merge({ DepartmentCode: "AVD10" }));
    expect(again.status).toBe(400);
    expect((await requests()) - n).toBe(1);
  });
});

describe("codes for ids: the gateway's own writes", () => {
  it("after the gateway renames a department's code and makes another with the old code, a merge patch naming the code writes the new department's id", async () => {
    const t = await tenant();
    const old = await created(t, "/Departments", { Code: "AVD10", Name: "Salg" });
    const c = await created(t, "/Customers", { Name: "Fjord AS" });
    // Caches AVD10 → the old department.
    expect((await t.v2(`/Customers/${c.Id}`, merge({ DepartmentCode: "AVD10" }))).status).toBe(200);
    expect((await t.v2(`/Departments/${old.Id}`, merge({ Code: "AVD11" }))).status).toBe(200);
    const made = await created(t, "/Departments", { Code: "AVD10", Name: "Salg (ny)" });
    const n = await requests();
    const res = await t.v2(`/Customers/${c.Id}`, merge({ DepartmentCode: "AVD10" }));
    expect(res.status, await res.clone().text()).toBe(200);
    // The lookup (the cached pair was forgotten when /Departments was written), then the write.
    expect((await requests()) - n).toBe(2);
    expect(await (await t.v2(`/Customers/${c.Id}`)).json()).toMatchObject({
      DepartmentId: made.Id,
    });
  });

  it("a write to another kind's list keeps the cached codes", async () => {
    const t = await tenant();
    await created(t, "/Departments", { Code: "AVD10", Name: "Salg" });
    const c = await created(t, "/Customers", { Name: "Fjord AS" });
    expect((await t.v2(`/Customers/${c.Id}`, merge({ DepartmentCode: "AVD10" }))).status).toBe(200);
    await created(t, "/Products", { Code: "P1", Name: "Vare" });
    const n = await requests();
    expect(
      (
        await t.v2(
          `/Customers/${c.Id}`,
          merge({ Name: "Fjord Holding AS", DepartmentCode: "AVD10" }),
        )
      ).status,
    ).toBe(200);
    expect((await requests()) - n).toBe(1);
  });
});

/** A manual journal whose lines name `accounts` by AccountNo, one line each. */
function journal(accounts: number[], extra: Record<string, unknown> = {}) {
  return {
    CurrencyCode: "NOK",
    VoucherDate: "2026-01-15",
    VoucherLines: accounts.map((AccountNo, i) => ({
      AccountNo,
      CurrencyAmount: i % 2 === 0 ? 100 : -100,
      PostingDate: "2026-01-15",
      VatId: 1,
    })),
    ...extra,
  };
}
const numbers = (n: number, from = 100_000) => Array.from({ length: n }, (_, i) => from + i);

describe("codes for ids: what one body may cost", () => {
  it("an invalid body with 2,500 codes is refused for its body, with no upstream call", async () => {
    const t = await tenant();
    const n = await requests();
    const res = await t.v2(
      "/Vouchers/ManualJournals",
      json(journal(numbers(2500), { VoucherDate: "not a date" })),
    );
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { type: string; errors: { path: string }[] };
    expect(problem.type).toBe("https://ledgergate.dev/problems/validation-failed");
    expect(problem.errors.map((e) => e.path)).toContain("VoucherDate");
    expect((await requests()) - n).toBe(0);
  });

  it("a body naming more distinct codes than the cap is refused with the cap in the detail, with no upstream call", async () => {
    const t = await tenant();
    const n = await requests();
    const res = await t.v2("/Vouchers/ManualJournals", json(journal(numbers(501))));
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await res.json()) as { type: string; detail: string };
    expect(problem.type).toBe("https://ledgergate.dev/problems/unprocessable");
    expect(problem.detail).toMatch(/\b501\b/);
    expect(problem.detail).toMatch(/at most 500\b/);
    expect((await requests()) - n).toBe(0);
  });

  it("a lookup that fails abandons the lookups not yet sent", async () => {
    const t = await tenant();
    // 300 account numbers: 6 lookups of 50. The first to arrive is answered 500 (a status the
    // client does not retry); the answer is the API's, and the lookups not yet sent never are.
    await control("PUT", "/settings", {
      faults: [
        { kind: "error", status: 500, target: "api", path: "/GeneralLedgerAccounts", count: 1 },
      ],
    });
    const n = await requests();
    const res = await t.v2("/Vouchers/ManualJournals", json(journal(numbers(300))));
    expect(res.status).toBe(500);
    const sent = (await requests()) - n;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThan(6);
  });
});

describe("codes for ids: security", () => {
  it("one tenant's cached codes never answer another's", async () => {
    const a = await tenant();
    const b = await tenant();
    await created(a, "/Departments", { Code: "AVD10", Name: "Salg" });
    const ca = await created(a, "/Customers", { Name: "A" });
    const cb = await created(b, "/Customers", { Name: "B" });
    expect((await a.v2(`/Customers/${ca.Id}`, merge({ DepartmentCode: "AVD10" }))).status).toBe(
      200,
    );
    const res = await b.v2(`/Customers/${cb.Id}`, merge({ DepartmentCode: "AVD10" }));
    expect(res.status).toBe(400);
  });
});
