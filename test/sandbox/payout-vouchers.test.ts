/**
 * What a payout's booking needs of the sandbox, as the API does it: the chart's clearing and payout
 * accounts; a bank voucher of several accounts and currencies that must balance in NOK, with each
 * line's own rate; `ExternalImportReference` unique among standing vouchers and free again once its
 * voucher is reversed; `POST /Vouchers/Reverse/{id}` once (a second is a 409); and
 * `AccountTransactions` of one account that sum exactly, a reversal and its voucher cancelling out.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { fresh, json, session } from "./helpers";

beforeEach(() => fresh());

type Dto = Record<string, unknown>;
type Api = Awaited<ReturnType<typeof session>>["api"];
const DAY = "2026-03-04";
const EVER = "fromDate=2000-01-01&toDate=2099-12-31";

async function body<T = Dto>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

/** Account ids by number. */
async function accounts(api: Api, ...nos: number[]): Promise<Record<number, number>> {
  const rows = await body<{ Id: number; AccountNo: number }[]>(
    await api(`/GeneralLedgerAccounts?accountNos=${nos.join(",")}`),
    200,
  );
  return Object.fromEntries(rows.map((a) => [a.AccountNo, a.Id]));
}

const line = (AccountId: number | undefined, CurrencyAmount: number, extra: Dto = {}) => ({
  AccountId,
  CurrencyAmount,
  VatId: 1,
  PostingDate: DAY,
  ...extra,
});
const voucher = (ref: string | null, lines: Dto[], currency = "NOK") => ({
  VoucherDate: DAY,
  CurrencyCode: currency,
  ...(ref ? { ExternalImportReference: ref } : {}),
  VoucherLines: lines,
});

/** The postings of `accountNo` and their sum in øre. */
async function postings(api: Api, accountNo: number) {
  const res = await api(`/AccountTransactions?accountNos=${accountNo}&${EVER}`);
  const rows = res.status === 204 ? [] : await body<Dto[]>(res, 200);
  return { rows, sum: rows.reduce((n, r) => n + Math.round(Number(r.Amount) * 100), 0) };
}

describe("sandbox: payout vouchers", () => {
  it("the chart has a clearing account per source, the fee, loss and currency accounts", async () => {
    const s = await session();
    const acc = await accounts(s.api, 1901, 1902, 1903, 1904, 1920, 7770, 7790, 7830, 8060, 8160);
    expect(Object.keys(acc).map(Number)).toEqual([
      1901, 1902, 1903, 1904, 1920, 7770, 7790, 7830, 8060, 8160,
    ]);
  });

  it("a bank voucher must balance: in NOK across currencies, each line at its own rate", async () => {
    const s = await session();
    const acc = await accounts(s.api, 1904, 1920, 7770, 8160);
    const unbalanced = await body<{ detail: string }>(
      await s.api(
        "/Vouchers/BankJournals",
        json(
          voucher(null, [
            line(acc[1920], 1130),
            line(acc[1904], -100, { CurrencyCode: "EUR", CurrencyExchangeRate: 11.65 }),
            line(acc[7770], 20),
          ]),
        ),
      ),
      400,
    );
    expect(unbalanced.detail).toContain("does not balance: its lines sum to -15.00 NOK");
    const v = await body(
      await s.api(
        "/Vouchers/BankJournals",
        json(
          voucher("lg:std:po:po_1", [
            line(acc[1920], 1130),
            line(acc[1904], -100, { CurrencyCode: "EUR", CurrencyExchangeRate: 11.65 }),
            line(acc[7770], 20),
            line(acc[8160], 15),
          ]),
        ),
      ),
      201,
    );
    expect(v.ExternalImportReference).toBe("lg:std:po:po_1");
    expect((await postings(s.api, 1904)).sum).toBe(-116_500);
    expect((await postings(s.api, 1920)).sum).toBe(113_000);
  });

  it("a reference is one voucher's while it stands; reversing frees it; a second reversal is a 409", async () => {
    const s = await session();
    const acc = await accounts(s.api, 1904, 1920);
    const lines = [line(acc[1920], 1463), line(acc[1904], -1463)];
    const first = await body<{ Id: string }>(
      await s.api("/Vouchers/BankJournals", json(voucher("lg:std:po:po_2", lines))),
      201,
    );
    const again = await body<{ detail: string }>(
      await s.api("/Vouchers/BankJournals", json(voucher("lg:std:po:po_2", lines))),
      400,
    );
    expect(again.detail).toContain("ExternalImportReference is already in use");
    // The account's transactions name the voucher and its reference: how a run finds it.
    const bank = await postings(s.api, 1920);
    expect(bank.rows.map((r) => [r.VoucherId, r.ExternalImportReference, r.Amount])).toEqual([
      [first.Id, "lg:std:po:po_2", 1463],
    ]);
    expect(bank.sum).toBe(146_300);

    expect((await s.api(`/Vouchers/Reverse/${first.Id}`, { method: "POST" })).status).toBe(200);
    const twice = await body<{ detail: string }>(
      await s.api(`/Vouchers/Reverse/${first.Id}`, { method: "POST" }),
      409,
    );
    expect(twice.detail).toContain("already reversed");
    const reversed = await postings(s.api, 1920);
    expect(reversed.rows).toHaveLength(2);
    expect(reversed.sum).toBe(0);
    expect(reversed.rows.every((r) => r.IsReversed === true)).toBe(true);
    // Free again: a corrected voucher may take the reference.
    await body(await s.api("/Vouchers/BankJournals", json(voucher("lg:std:po:po_2", lines))), 201);
    expect((await postings(s.api, 1920)).sum).toBe(146_300);
  });

  it("AccountTransactions of one account: only its postings, summing exactly to the øre", async () => {
    const s = await session();
    const acc = await accounts(s.api, 1904, 1920, 7770);
    const paid: [deposit: number, fee: number][] = [
      [0.1, 0.2],
      [1234.56, 30.07],
      [99.99, 0.01],
    ];
    for (const [i, [deposit, fee]] of paid.entries())
      await body(
        await s.api(
          "/Vouchers/BankJournals",
          json(
            voucher(`lg:std:po:sum-${i}`, [
              line(acc[1920], deposit),
              line(acc[7770], fee),
              line(acc[1904], -Math.round((deposit + fee) * 100) / 100),
            ]),
          ),
        ),
        201,
      );
    const bank = await postings(s.api, 1920);
    expect(bank.rows.map((r) => r.AccountNo)).toEqual([1920, 1920, 1920]);
    expect(bank.sum).toBe(10 + 123_456 + 9_999);
    expect((await postings(s.api, 1904)).sum).toBe(-(30 + 126_463 + 10_000));
  });
});
