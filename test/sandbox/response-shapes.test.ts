/**
 * Answers that a client generated from the vendor's OpenAPI document must be able to read: exactly
 * the documented properties, none the sandbox keeps for itself. Each case was a mismatch once.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { fresh, json, session } from "./helpers";

beforeEach(() => fresh());

type Dto = Record<string, unknown>;

async function body<T = Dto>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

const keys = (d: unknown) => Object.keys(d as Dto).sort();
const today = () => new Date().toISOString().slice(0, 10);

describe("response shapes", () => {
  it("GET /ClientBankAccounts: the seeded account has every ClientBankAccountDto property, BicSwift and CountryCode set, and no Name", async () => {
    const s = await session();
    const [account] = await body<Dto[]>(await s.api("/ClientBankAccounts"), 200);
    expect(keys(account)).toEqual([
      "ActiveIncomingPaymentService",
      "ActiveOutgoingPaymentServices",
      "AgricultureDepartment",
      "AllowOverdraft",
      "BankAccountNumber",
      "BankName",
      "BicSwift",
      "CountryCode",
      "CreatedDateTimeOffset",
      "CurrencyCode",
      "GeneralLedgerAccountId",
      "GeneralLedgerAccountNo",
      "Id",
      "IsActive",
      "IsClientTrustAccount",
      "IsPrimaryAccount",
      "LastChangedDateTimeOffset",
      "OverdraftLimit",
    ]);
    expect(account).toMatchObject({ BicSwift: expect.any(String), CountryCode: "NO" });
    expect(await body(await s.api(`/ClientBankAccounts/${String(account?.Id)}`), 200)).toEqual(
      account,
    );
  });

  it("CustomerDto, SupplierDto and EmployeeDto do not answer the SubLedgerNumberSeriesId their bodies take", async () => {
    const s = await session();
    const [series] = await body<Dto[]>(
      await s.api("/SubLedgerNumberSeries?subLedgerNumberSeriesType=Customer"),
      200,
    );
    const customer = await body(
      await s.api("/Customers", json({ Name: "Fjord AS", SubLedgerNumberSeriesId: series?.Id })),
      201,
    );
    const supplier = await body(await s.api("/Suppliers", json({ Name: "Lev AS" })), 201);
    const employee = await body(
      await s.api("/Employees", json({ FirstName: "Kari", LastName: "N" })),
      201,
    );
    for (const [path, dto] of [
      ["/Customers", customer],
      ["/Suppliers", supplier],
      ["/Employees", employee],
    ] as const) {
      expect(dto).not.toHaveProperty("SubLedgerNumberSeriesId");
      expect(await body(await s.api(`${path}/${String(dto.Id)}`), 200)).not.toHaveProperty(
        "SubLedgerNumberSeriesId",
      );
      expect((await body<Dto[]>(await s.api(path), 200))[0]).not.toHaveProperty(
        "SubLedgerNumberSeriesId",
      );
    }
  });

  it("SalesOrderLineDto has no AccountId, wherever a line is answered", async () => {
    const s = await session();
    const customer = await body(await s.api("/Customers", json({ Name: "Fjord AS" })), 201);
    const product = await body(
      await s.api("/Products", json({ Name: "Kaffe", UnitPrice: 100 })),
      200,
    );
    const order = await body<Dto & { SalesOrderLines: Dto[] }>(
      await s.api(
        "/SalesOrders/Complete",
        json({
          CustomerId: customer.Id,
          SalesOrderLines: [{ ProductId: product.Id, Quantity: 1 }],
        }),
      ),
      201,
    );
    const id = String(order.Id);
    const line = order.SalesOrderLines[0] as Dto;
    const answers = [
      line,
      ...(
        await body<Dto & { SalesOrderLines: Dto[] }>(
          await s.api(`/SalesOrders/${id}/Complete`),
          200,
        )
      ).SalesOrderLines,
      ...(await body<Dto[]>(await s.api(`/SalesOrders/${id}/Lines`), 200)),
      await body(await s.api(`/SalesOrders/${id}/Lines/${String(line.Id)}`), 200),
      await body(
        await s.api(`/SalesOrders/${id}/Lines`, json({ ProductId: product.Id, Quantity: 2 })),
        201,
      ),
    ];
    for (const a of answers) expect(a).not.toHaveProperty("AccountId");
    expect(line).toMatchObject({ VatCode: "3", TotalAmount: 125 });
  });

  it("directly posted vouchers answer every line property of their DTO; a reversal answers 200 with no body", async () => {
    const s = await session();
    const accounts = await body<Dto[]>(
      await s.api("/GeneralLedgerAccounts?accountNos=1920,3000"),
      200,
    );
    const [bank, sales] = [
      accounts.find((a) => a.AccountNo === 1920)?.Id,
      accounts.find((a) => a.AccountNo === 3000)?.Id,
    ];
    const voucher = await body<Dto & { VoucherLines: Dto[] }>(
      await s.api(
        "/Vouchers/ManualJournals",
        json({
          CurrencyCode: "NOK",
          VoucherDate: today(),
          VoucherLines: [
            { AccountId: bank, CurrencyAmount: 100, VatId: 1, PostingDate: today() },
            { AccountId: sales, CurrencyAmount: -100, VatId: 1, PostingDate: today() },
          ],
        }),
      ),
      201,
    );
    expect(keys(voucher)).toEqual([
      "CreatedDateTimeOffset",
      "CurrencyCode",
      "Description",
      "ExternalImportReference",
      "Id",
      "ImportedVoucherNo",
      "IsReversed",
      "SaftBatchId",
      "SaftSourceId",
      "VoucherDate",
      "VoucherLines",
      "VoucherNo",
    ]);
    expect(keys(voucher.VoucherLines[0])).toEqual([
      "AccountId",
      "CreatedDateTimeOffset",
      "CurrencyAmount",
      "CurrencyCode",
      "CurrencyExchangeRate",
      "CustomMatchingReference",
      "DepartmentId",
      "Description",
      "Dim1Id",
      "Dim2Id",
      "Dim3Id",
      "ExternalLineReference",
      "Id",
      "LocationId",
      "PostingDate",
      "ProductId",
      "ProjectId",
      "Quantity",
      "Quantity2",
      "VatId",
      "VatReturnSpecification",
    ]);
    const reversed = await s.api(`/Vouchers/Reverse/${String(voucher.Id)}`, { method: "POST" });
    expect([reversed.status, await reversed.text()]).toEqual([200, ""]);
  });
});
