/**
 * A realistic sale end to end against the sandbox: customer and products, a complete sales order,
 * CreateAndSendInvoice and its asynchronous delivery, the outgoing invoice, and a bank voucher that
 * settles it, after which the customer's balance and open items are zero.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DELIVERY_DELAY_MS } from "../../sandbox/src/resources/sales";
import { advanceClock, fresh, holdClock, json, session } from "./helpers";

type Dto = Record<string, unknown>;
type Api = Awaited<ReturnType<typeof session>>["api"];

async function body<T = Dto>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

async function accountId(api: Api, no: number): Promise<number> {
  const [a] = await body<Dto[]>(await api(`/GeneralLedgerAccounts?accountNos=${no}`), 200);
  return a?.Id as number;
}

async function sentState(api: Api, orderId: string): Promise<Dto> {
  const [state] = await body<Dto[]>(await api(`/SalesOrders/sentState?id=${orderId}`), 200);
  if (!state) throw new Error(`no sent state for order ${orderId}`);
  return state;
}

describe("sales flow", () => {
  beforeAll(() => fresh());
  afterEach(() => vi.useRealTimers());

  it("customer → products → order → send → delivered → invoice → bank voucher settles it → balance 0", async () => {
    const { api } = await session("demo");
    const customer = await body(
      await api(
        "/Customers",
        json({
          Name: "Fjord Kaffe AS",
          EmailAddress: "faktura@fjordkaffe.no",
          OrganizationNumber: "914778271",
        }),
      ),
      201,
    );
    expect(customer.Number).toBe(10000);
    const [food, goods] = [
      await body(
        await api(
          "/Products",
          json({ Name: "Kaffebønner 1 kg", UnitPrice: 199, StandardSalesAccount: 3030 }),
        ),
        200,
      ),
      await body(
        await api(
          "/Products",
          json({ Name: "Kaffekvern", UnitPrice: 1000, StandardSalesAccount: 3000, Code: "KV-1" }),
        ),
        200,
      ),
    ];
    expect(goods.StandardSalesAccountId).toBe(await accountId(api, 3000));

    const order = await body(
      await api(
        "/SalesOrders/Complete",
        json({
          CustomerNo: customer.Number,
          ExternalImportReference: "shop-1001",
          SalesOrderLines: [
            { ProductCode: "KV-1", Quantity: 1, Allowance: 10 },
            { ProductId: food.Id, Quantity: 3 },
          ],
        }),
      ),
      201,
    );
    // 1000 less 10 % at 25 % VAT = 1125; 3 × 199 at 15 % = 686.55.
    expect(order).toMatchObject({
      CustomerId: customer.Id,
      NetAmount: 1497,
      TotalAmount: 1811.55,
      LineCount: 2,
      SalesOrderStatus: "Draft",
    });
    const lines = order.SalesOrderLines as Dto[];
    expect(lines.map((l) => [l.VatCode, l.VatRate, l.TotalAmount])).toEqual([
      ["3", 0.25, 1125],
      ["31", 0.15, 686.55],
    ]);
    expect(
      (
        await api(
          "/SalesOrders/Complete",
          json({ CustomerId: customer.Id, ExternalImportReference: "shop-1001" }),
        )
      ).status,
    ).toBe(400);

    // The clock held from the send on: the invoice is delivered exactly DELIVERY_DELAY_MS later.
    holdClock();
    const send = await api(
      `/SalesOrders/${String(order.Id)}/createAndSendInvoice`,
      json({ DeliveryType: "PdfByEmail" }),
    );
    const request = await body(send, 202);
    expect(request).toMatchObject({ DeliveryType: "PdfByEmail" });
    expect(send.headers.get("location")).toMatch(
      new RegExp(`/SalesOrders/sentState\\?id=${String(order.Id)}$`),
    );
    const pending = await sentState(api, String(order.Id));
    expect(pending).toMatchObject({ IsInvoiceBeingProcessed: true, InvoiceNo: null });
    expect(
      (await api(`/SalesOrders/${String(order.Id)}/createAndSendInvoice`, json({}))).status,
    ).toBe(409);
    advanceClock(DELIVERY_DELAY_MS - 1);
    expect(await sentState(api, String(order.Id))).toMatchObject({ IsInvoiceBeingProcessed: true });

    advanceClock(1);
    const delivered = await sentState(api, String(order.Id));
    expect(delivered).toMatchObject({
      IsInvoiceBeingProcessed: false,
      InvoiceNo: 10001,
      InvoiceDeliveryType: "PdfByEmail",
      LastErrorMessage: null,
    });
    expect(delivered.SentDateTimeOffset).toEqual(expect.any(String));
    expect((await api(`/SalesOrders/${String(order.Id)}`)).status).toBe(404);

    const [invoice] = await body<Dto[]>(await api("/OutgoingInvoices?invoiceNos=10001"), 200);
    expect(invoice).toMatchObject({
      InvoiceNo: 10001,
      CustomerId: customer.Id,
      TotalAmount: 1811.55,
      Balance: 1811.55,
      VoucherType: "OutgoingInvoice",
      ExternalImportReference: "shop-1001",
    });
    const invoiceLines = await body<Dto[]>(
      await api(`/OutgoingInvoices/${String(invoice?.Id)}/Lines`),
      200,
    );
    expect(invoiceLines.map((l) => [l.SortOrder, l.AccountNo, l.TotalAmount])).toEqual([
      [0, 3000, 1125],
      [1, 3030, 686.55],
    ]);

    const [open] = await body<Dto[]>(await api("/Customerledger/OpenItems?date=2099-12-31"), 200);
    expect(open).toMatchObject({ CustomerId: customer.Id, InvoiceNo: "10001", Amount: 1811.55 });
    // invoiceNos matches the entries' InvoiceNo, a string, as a comma list.
    expect(
      await body<Dto[]>(
        await api("/Customerledger/OpenItems?date=2099-12-31&invoiceNos=10001,20002"),
        200,
      ),
    ).toEqual([open]);
    expect((await api("/CustomerLedger/OpenItems?date=2099-12-31&invoiceNos=20002")).status).toBe(
      204,
    );
    const today = new Date().toISOString().slice(0, 10);
    await body(
      await api(
        "/Vouchers/BankJournals",
        json({
          VoucherDate: today,
          CurrencyCode: "NOK",
          ExternalImportReference: "payment-1001",
          VoucherLines: [
            {
              AccountId: await accountId(api, 1920),
              CurrencyAmount: 1811.55,
              VatId: 1,
              PostingDate: today,
            },
            {
              AccountId: customer.SubledgerAccountId,
              CurrencyAmount: -1811.55,
              VatId: 1,
              PostingDate: today,
              InvoiceNo: "10001",
            },
          ],
        }),
      ),
      201,
    );

    const [balance] = await body<Dto[]>(
      await api(`/Customerledger/CustomerBalances?date=2099-12-31`),
      200,
    );
    expect(balance).toMatchObject({
      CustomerId: customer.Id,
      CustomerAccountNo: 10000,
      Balance: 0,
    });
    expect((await api("/Customerledger/OpenItems?date=2099-12-31")).status).toBe(204);
    const [paid] = await body<Dto[]>(await api("/OutgoingInvoices?invoiceNos=10001"), 200);
    expect(paid?.Balance).toBe(0);
    expect((await api("/OutgoingInvoices?onlyUnpaidInvoices=true")).status).toBe(204);
    const matched = await body<Dto[]>(
      await api(`/Customerledger/EntriesByMatchId?matchId=${String(paid?.MatchId)}`),
      200,
    );
    expect(matched).toHaveLength(2);

    const trial = await body<Dto[]>(
      await api(`/TrialBalance?date=2099-12-31&hideAccountsWithZeroBalance=true`),
      200,
    );
    const byNo = Object.fromEntries(trial.map((l) => [l.AccountNo, l.Balance]));
    // The customer ledger (1500) is back to zero; sales and output VAT stay, the money is in the
    // bank.
    expect(byNo).toEqual({ 1920: 1811.55, 2700: -314.55, 3000: -900, 3030: -597 });
  });
});
