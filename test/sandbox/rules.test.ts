/**
 * Rules of the API that the sandbox enforces and no other test proves on its own: the date range of
 * `AccountTransactions`, sub-projects one level deep with `parent.sub` codes, VAT on bank voucher
 * lines, non-zero line amounts, and the lock date. Country code defaults, enum casing and body
 * validation are proven in `customers.test.ts`.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { Store } from "../../sandbox/src/engine/store";
import { SETTINGS } from "../../sandbox/src/engine/client-settings";
import { fresh, json, session } from "./helpers";

beforeEach(() => fresh());

type Session = Awaited<ReturnType<typeof session>>;
type Api = Session["api"];
type Dto = Record<string, unknown>;
type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Record<string, string[]>;
};

const today = () => new Date().toISOString().slice(0, 10);

async function body<T = Dto>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

/** A 400 ProblemDetails, checked for its media type and status. */
async function badRequest(res: Response): Promise<Problem> {
  expect(res.headers.get("content-type")).toContain("application/problem+json");
  const p = await body<Problem>(res, 400);
  expect(p.status).toBe(400);
  return p;
}

/** Account ids by account number. */
async function accounts(api: Api): Promise<Record<number, number>> {
  const rows = await body<{ Id: number; AccountNo: number }[]>(
    await api("/GeneralLedgerAccounts?accountNos=1920,3000,4000,6300"),
    200,
  );
  return Object.fromEntries(rows.map((a) => [a.AccountNo, a.Id]));
}

/**
 * A balanced two-line voucher body: `amount` into the bank (1920) against `against`, VatId 1 on
 * both unless given.
 */
function twoLines(
  acc: Record<number, number>,
  date: string,
  over: { against?: number; amount?: number; bankVatId?: number; otherVatId?: number } = {},
): Dto {
  const amount = over.amount ?? 100;
  return {
    CurrencyCode: "NOK",
    VoucherDate: date,
    VoucherLines: [
      {
        AccountId: acc[1920],
        CurrencyAmount: amount,
        VatId: over.bankVatId ?? 1,
        PostingDate: date,
      },
      {
        AccountId: over.against ?? acc[6300],
        CurrencyAmount: -amount,
        VatId: over.otherVatId ?? 1,
        PostingDate: date,
      },
    ],
  };
}

/**
 * Sets the client's lock date in its store, as a user would in Go: the API itself only reads it.
 */
async function setLockDate(s: Session, date: string): Promise<void> {
  const ns = env.CLIENTS;
  await runInDurableObject(ns.get(ns.idFromName(`${s.environment}:${s.clientId}`)), (_i, state) => {
    new Store(state.storage.sql).put(
      SETTINGS.lockDate,
      "settings",
      { LockDate: date },
      { owner: "test" },
    );
  });
}

const shiftDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe("AccountTransactions: the date range", () => {
  it("refuses FromDate after ToDate with 400 naming both", async () => {
    const s = await session();
    const p = await badRequest(
      await s.api("/AccountTransactions?fromDate=2024-02-01&toDate=2024-01-31"),
    );
    expect(p).toMatchObject({ title: "Invalid date range" });
    expect(p.detail).toContain("FromDate (2024-02-01)");
    expect(p.detail).toContain("ToDate (2024-01-31)");
  });

  it("answers a valid range: 204 with nothing posted, 200 with the postings; one day (FromDate = ToDate) is a valid range", async () => {
    const s = await session();
    expect((await s.api("/AccountTransactions?fromDate=2024-01-01&toDate=2024-12-31")).status).toBe(
      204,
    );
    const acc = await accounts(s.api);
    const v = await body(
      await s.api("/Vouchers/ManualJournals", json(twoLines(acc, today()))),
      201,
    );
    const rows = await body<Dto[]>(
      await s.api(`/AccountTransactions?fromDate=${today()}&toDate=${today()}`),
      200,
    );
    expect(rows.map((r) => [r.VoucherId, r.AccountNo, r.Amount])).toEqual([
      [v.Id, 1920, 100],
      [v.Id, 6300, -100],
    ]);
    expect(
      (
        await s.api(
          `/AccountTransactions?fromDate=${shiftDays(today(), 1)}&toDate=${shiftDays(today(), 30)}`,
        )
      ).status,
    ).toBe(204);
  });

  it("requires both dates, as dates", async () => {
    const s = await session();
    expect(
      (await badRequest(await s.api("/AccountTransactions?toDate=2024-01-31"))).errors,
    ).toHaveProperty("fromDate");
    expect(
      (await badRequest(await s.api("/AccountTransactions?fromDate=2024-01-01"))).errors,
    ).toHaveProperty("toDate");
    expect(
      (await badRequest(await s.api("/AccountTransactions?fromDate=yesterday&toDate=2024-01-31")))
        .errors,
    ).toHaveProperty("fromDate");
  });
});

describe("Projects: one level of sub-projects", () => {
  it("creates a sub-project under a top-level project; its Code is answered as parent.sub", async () => {
    const s = await session();
    const top = await body(await s.api("/Projects", json({ Name: "Hytta", Code: "P1" })), 201);
    expect(top).toMatchObject({ Code: "P1", ParentProjectId: null, ParentProjectCode: null });
    const byId = await body(
      await s.api("/Projects", json({ Name: "Taket", Code: "2", ParentProjectId: top.Id })),
      201,
    );
    expect(byId).toMatchObject({ Code: "P1.2", ParentProjectId: top.Id, ParentProjectCode: "P1" });
    expect(await body(await s.api(`/Projects/${String(byId.Id)}`), 200)).toMatchObject({
      Code: "P1.2",
    });
    const byCode = await body(
      await s.api("/Projects", json({ Name: "Veggene", Code: "3", ParentProjectCode: "p1" })),
      201,
    );
    expect(byCode).toMatchObject({
      Code: "P1.3",
      ParentProjectId: top.Id,
      ParentProjectCode: "P1",
    });
    expect(
      (await body<Dto[]>(await s.api("/Projects?projectCodes=P1.2"), 200)).map((p) => p.Id),
    ).toEqual([byId.Id]);
  });

  it("keeps codes unique once joined: sub-code 2 under two parents, but not twice under one", async () => {
    const s = await session();
    const p1 = await body(await s.api("/Projects", json({ Name: "Hytta", Code: "P1" })), 201);
    const p3 = await body(await s.api("/Projects", json({ Name: "Båten", Code: "P3" })), 201);
    const first = await body(
      await s.api("/Projects", json({ Name: "Taket", Code: "2", ParentProjectId: p1.Id })),
      201,
    );
    expect(
      await body(
        await s.api("/Projects", json({ Name: "Dekket", Code: "2", ParentProjectId: p3.Id })),
        201,
      ),
    ).toMatchObject({ Code: "P3.2" });
    expect(
      await body(await s.api("/Projects", json({ Name: "Toppnivå", Code: "2" })), 201),
    ).toMatchObject({ Code: "2", ParentProjectId: null });
    const p = await badRequest(
      await s.api("/Projects", json({ Name: "Igjen", Code: "2", ParentProjectCode: "P1" })),
    );
    expect(p).toMatchObject({
      title: "Project validation error(s)",
      detail: `Code is already in use. 'P1.2' is used on (project) Id = ${String(first.Id)}.`,
    });
  });

  it("patches a sub-project by its sub-code, and joins it with a new parent", async () => {
    const s = await session();
    const p1 = await body(await s.api("/Projects", json({ Name: "Hytta", Code: "P1" })), 201);
    const p3 = await body(await s.api("/Projects", json({ Name: "Båten", Code: "P3" })), 201);
    const sub = await body(
      await s.api("/Projects", json({ Name: "Taket", Code: "2", ParentProjectId: p1.Id })),
      201,
    );
    const patch = (ops: unknown[]) =>
      s.api(`/Projects/${String(sub.Id)}`, json(ops, "PATCH", "application/json-patch+json"));
    expect(
      await body(await patch([{ op: "replace", path: "/Name", value: "Taket og pipa" }]), 200),
    ).toMatchObject({ Name: "Taket og pipa", Code: "P1.2" });
    expect(
      await body(await patch([{ op: "replace", path: "/Code", value: "5" }]), 200),
    ).toMatchObject({ Code: "P1.5" });
    expect(
      await body(await patch([{ op: "replace", path: "/ParentProjectId", value: p3.Id }]), 200),
    ).toMatchObject({ Code: "P3.5", ParentProjectId: p3.Id, ParentProjectCode: "P3" });
    expect(
      (await badRequest(await patch([{ op: "replace", path: "/Code", value: "P3.6" }]))).errors,
    ).toHaveProperty("Code");
  });

  it("refuses a project whose parent is itself a sub-project: 400, and nothing is stored", async () => {
    const s = await session();
    const top = await body(await s.api("/Projects", json({ Name: "Hytta", Code: "P1" })), 201);
    const sub = await body(
      await s.api("/Projects", json({ Name: "Taket", Code: "2", ParentProjectId: top.Id })),
      201,
    );
    for (const parent of [{ ParentProjectId: sub.Id }, { ParentProjectCode: "P1.2" }]) {
      const p = await badRequest(
        await s.api("/Projects", json({ Name: "Takstein", Code: "9", ...parent })),
      );
      expect(p).toMatchObject({
        title: "Project validation error(s)",
        detail: "Project P1.2 is a sub project; a sub project cannot have sub projects of its own.",
      });
    }
    expect((await body<Dto[]>(await s.api("/Projects"), 200)).map((p) => p.Code)).toEqual([
      "P1",
      "P1.2",
    ]);
  });
});

describe("Vouchers/BankJournals: VAT on bank lines", () => {
  it("refuses an unknown VatId on a bank voucher line with the bank voucher's own error", async () => {
    const s = await session();
    const acc = await accounts(s.api);
    const p = await badRequest(
      await s.api("/Vouchers/BankJournals", json(twoLines(acc, today(), { otherVatId: 999 }))),
    );
    expect(p).toMatchObject({
      title: "BankVoucher validation error(s)",
      detail:
        "VoucherLines[1].VatId 999 is not a valid VAT code on a bank voucher. Bank voucher lines take VatId 1 (code 0, no VAT).",
    });
  });

  it("refuses a VAT code with a rate on the bank account's line", async () => {
    const s = await session();
    const acc = await accounts(s.api);
    const p = await badRequest(
      await s.api("/Vouchers/BankJournals", json(twoLines(acc, today(), { bankVatId: 6 }))),
    );
    expect(p).toMatchObject({
      title: "BankVoucher validation error(s)",
      detail:
        "VoucherLines[0].VatId 6 (code 3) is not valid on a bank voucher line for a bank or sub-ledger account. Use VatId 1 (code 0, no VAT).",
    });
  });

  it("takes VatId 1 on the bank line: 201", async () => {
    const s = await session();
    const acc = await accounts(s.api);
    const v = await body(await s.api("/Vouchers/BankJournals", json(twoLines(acc, today()))), 201);
    expect(v).toMatchObject({
      Id: expect.any(String),
      VoucherNo: expect.any(Number),
      VoucherLines: [{ VatId: 1 }, { VatId: 1 }],
    });
  });
});

describe("Vouchers: line amounts", () => {
  it("refuses CurrencyAmount 0 with 400 naming the line's CurrencyAmount", async () => {
    const s = await session();
    const acc = await accounts(s.api);
    const zero = twoLines(acc, today(), { amount: 0 });
    for (const route of ["ManualJournals", "BankJournals"]) {
      const p = await badRequest(await s.api(`/Vouchers/${route}`, json(zero)));
      expect(Object.keys(p.errors ?? {}), route).toEqual([
        "VoucherLines.0.CurrencyAmount",
        "VoucherLines.1.CurrencyAmount",
      ]);
      expect(p.detail).toContain("CurrencyAmount");
    }
    expect((await s.api(`/AccountTransactions?fromDate=${today()}&toDate=${today()}`)).status).toBe(
      204,
    );
  });
});

describe("Vouchers: the lock date", () => {
  it("refuses a voucher dated on or before the lock date (400), and posts one dated after it (201)", async () => {
    const s = await session();
    const acc = await accounts(s.api);
    const lock = shiftDays(today(), -10);
    await setLockDate(s, lock);
    expect(await body(await s.api("/LockDateSettings"), 200)).toEqual({ LockDate: lock });
    for (const date of [lock, shiftDays(lock, -1)]) {
      const p = await badRequest(
        await s.api("/Vouchers/ManualJournals", json(twoLines(acc, date))),
      );
      expect(p).toMatchObject({
        title: "ManualVoucher validation error(s)",
        detail: `VoucherLines[0].PostingDate ${date} is in a locked period (locked up to ${lock}).`,
      });
    }
    expect(
      (await s.api(`/AccountTransactions?fromDate=${shiftDays(lock, -1)}&toDate=${lock}`)).status,
    ).toBe(204);
    const after = shiftDays(lock, 1);
    const v = await body(await s.api("/Vouchers/ManualJournals", json(twoLines(acc, after))), 201);
    expect(v).toMatchObject({ VoucherDate: after });
  });

  it("holds the seeded lock date (the last day of the previous year) until it is moved", async () => {
    const s = await session();
    const acc = await accounts(s.api);
    const lock = `${new Date().getUTCFullYear() - 1}-12-31`;
    expect(await body(await s.api("/LockDateSettings"), 200)).toEqual({ LockDate: lock });
    expect((await s.api("/Vouchers/BankJournals", json(twoLines(acc, lock)))).status).toBe(400);
    expect(
      (await s.api("/Vouchers/BankJournals", json(twoLines(acc, shiftDays(lock, 1))))).status,
    ).toBe(201);
  });
});
