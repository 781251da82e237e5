/**
 * The change filters the gateway's watcher polls (docs/events.md, "The watcher"), behaving as the
 * API's: exclusive (`>`), on the documented fields, in the documented format, `204` when nothing
 * changed, paged and ordered by the change; what they do not see (a customer's address, a
 * product's stock); an invoice's `BalanceLastChangedDateTimeOffset`, moved by a payment posted with
 * the client's own token and by its reversal; and the control API's backdating of a change (a row
 * committed late). The clock is held, so every stamp is an exact figure.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DELIVERY_DELAY_MS } from "../../sandbox/src/resources/sales";
import { advanceClock, control, fresh, holdClock, json, session } from "./helpers";

type Dto = Record<string, unknown>;
type Session = Awaited<ReturnType<typeof session>>;

beforeAll(() => fresh());
afterEach(() => vi.useRealTimers());

async function body<T = Dto>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

/** `name` of the rows a list answers (none for a 204). */
async function listed(s: Session, path: string, name = "Name"): Promise<unknown[]> {
  const res = await s.api(path);
  if (res.status === 204) return [];
  return (await body<Dto[]>(res, 200)).map((r) => r[name]);
}

/** `t` in the format the API documents for its filters: `2021-09-25 08:03:00.123456+00:00`. */
const documented = (t: string) => encodeURIComponent(t.replace("T", " ").replace("Z", "000+00:00"));
const before = (t: unknown) => new Date(Date.parse(String(t)) - 1).toISOString();

/** An invoice sent to a new customer for `price` (before VAT); its customer and its row. */
async function invoice(s: Session, price: number) {
  const customer = await body(await s.api("/Customers", json({ Name: `Buyer ${price}` })), 201);
  const product = await body(
    await s.api("/Products", json({ Name: `Thing ${price}`, UnitPrice: price })),
    200,
  );
  const order = await body(
    await s.api(
      "/SalesOrders/Complete",
      json({ CustomerId: customer.Id, SalesOrderLines: [{ ProductId: product.Id, Quantity: 1 }] }),
    ),
    201,
  );
  await body(await s.api(`/SalesOrders/${String(order.Id)}/createAndSendInvoice`, json({})), 202);
  advanceClock(DELIVERY_DELAY_MS);
  const [state] = await body<Dto[]>(
    await s.api(`/SalesOrders/sentState?id=${String(order.Id)}`),
    200,
  );
  const [row] = await body<Dto[]>(
    await s.api(`/OutgoingInvoices?invoiceNos=${String(state?.InvoiceNo)}`),
    200,
  );
  return { customer, invoice: row as Dto };
}

/** A bank voucher paying `amount` of invoice `invoiceNo` from the customer's sub-ledger. */
async function pay(s: Session, customer: Dto, invoiceNo: unknown, amount: unknown) {
  const [bank] = await body<Dto[]>(await s.api("/GeneralLedgerAccounts?accountNos=1920"), 200);
  const today = new Date().toISOString().slice(0, 10);
  return body(
    await s.api(
      "/Vouchers/BankJournals",
      json({
        VoucherDate: today,
        CurrencyCode: "NOK",
        VoucherLines: [
          { AccountId: bank?.Id, CurrencyAmount: amount, VatId: 1, PostingDate: today },
          {
            AccountId: customer.SubledgerAccountId,
            CurrencyAmount: -Number(amount),
            VatId: 1,
            PostingDate: today,
            InvoiceNo: String(invoiceNo),
          },
        ],
      }),
    ),
    201,
  );
}

describe("change filters: customers", () => {
  it("lastChanged… and customerCreated… are exclusive, read the documented format, and answer 204 when nothing changed", async () => {
    holdClock();
    const s = await session("demo");
    const a = await body(await s.api("/Customers", json({ Name: "Alfa AS" })), 201);
    advanceClock(1000);
    const b = await body(await s.api("/Customers", json({ Name: "Beta AS" })), 201);
    // Created and last changed are one instant at creation.
    expect(b.LastChangedDateTimeOffset).toBe(b.CustomerCreatedDateTimeOffset);
    const at = String(a.LastChangedDateTimeOffset);
    expect(await listed(s, `/Customers?lastChangedDateTimeOffsetGreaterThan=${at}`)).toEqual([
      "Beta AS",
    ]);
    expect(
      await listed(s, `/Customers?lastChangedDateTimeOffsetGreaterThan=${before(at)}`),
    ).toEqual(["Alfa AS", "Beta AS"]);
    expect(
      await listed(s, `/Customers?customerCreatedDateTimeOffsetGreaterThan=${documented(at)}`),
    ).toEqual(["Beta AS"]);
    const last = String(b.LastChangedDateTimeOffset);
    const empty = await s.api(
      `/Customers?lastChangedDateTimeOffsetGreaterThan=${documented(last)}`,
    );
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe("");
    const bad = await s.api("/Customers?lastChangedDateTimeOffsetGreaterThan=yesterday");
    expect(bad.status).toBe(400);
    await bad.body?.cancel();
  });

  it("a change moves LastChangedDateTimeOffset; a change of the mail address alone does not", async () => {
    holdClock();
    const s = await session("demo");
    const c = await body(
      await s.api(
        "/Customers",
        json({ Name: "Gamma AS", MailAddress: { City: "Oslo", ZipCode: "0150" } }),
      ),
      201,
    );
    const created = String(c.LastChangedDateTimeOffset);
    advanceClock(1000);
    const moved = await body(
      await s.api(
        `/Customers/${String(c.Id)}`,
        json(
          [{ op: "replace", path: "/MailAddress/City", value: "Bergen" }],
          "PATCH",
          "application/json-patch+json",
        ),
      ),
      200,
    );
    expect((moved.MailAddress as Dto).City).toBe("Bergen");
    expect(moved.LastChangedDateTimeOffset).toBe(created);
    // The address keeps a stamp of its own.
    expect((moved.MailAddress as Dto).LastChangedDateTimeOffset).not.toBe(created);
    expect(await listed(s, `/Customers?lastChangedDateTimeOffsetGreaterThan=${created}`)).toEqual(
      [],
    );
    advanceClock(1000);
    const renamed = await body(
      await s.api(
        `/Customers/${String(c.Id)}`,
        json(
          [{ op: "replace", path: "/Name", value: "Gamma Nord AS" }],
          "PATCH",
          "application/json-patch+json",
        ),
      ),
      200,
    );
    expect(Date.parse(String(renamed.LastChangedDateTimeOffset))).toBe(Date.parse(created) + 2000);
    expect(await listed(s, `/Customers?lastChangedDateTimeOffsetGreaterThan=${created}`)).toEqual([
      "Gamma Nord AS",
    ]);
  });

  it("pages ordered by the change: PageSize, OrderBy and X-Pagination's nextPageLink", async () => {
    holdClock();
    const s = await session("demo");
    const start = new Date(Date.now() - 1).toISOString();
    for (const name of ["P1", "P2", "P3"]) {
      await body(await s.api("/Customers", json({ Name: name })), 201);
      advanceClock(10);
    }
    const first = await s.api(
      `/Customers?lastChangedDateTimeOffsetGreaterThan=${start}&OrderBy=LastChangedDateTimeOffset asc&PageSize=2`,
    );
    const page = JSON.parse(first.headers.get("x-pagination") ?? "{}") as Dto;
    expect((await body<Dto[]>(first, 200)).map((r) => r.Name)).toEqual(["P1", "P2"]);
    expect(page).toMatchObject({ totalCount: 3, pageSize: 2, currentPage: 1, totalPages: 2 });
    const next = new URL(String(page.nextPageLink));
    expect(
      await listed(s, `/Customers${next.search}`.replace(/^\/Customers\?/, "/Customers?")),
    ).toEqual(["P3"]);
  });
});

describe("change filters: products", () => {
  it("lastChanged… and created… are exclusive; a change of the stock alone moves its own stamp only", async () => {
    holdClock();
    const s = await session("demo");
    const p = await body(
      await s.api(
        "/Products",
        json({ Name: "Kaffe", UnitPrice: 10, IsStockItem: true, StockOnHand: 5 }),
      ),
      200,
    );
    const created = String(p.CreatedDateTimeOffset);
    expect(p.LastChangedDateTimeOffset).toBe(created);
    expect(await listed(s, `/Products?createdDateTimeOffsetGreaterThan=${created}`)).toEqual([]);
    expect(
      await listed(s, `/Products?createdDateTimeOffsetGreaterThan=${before(created)}`),
    ).toEqual(["Kaffe"]);
    advanceClock(1000);
    const stocked = await body(
      await s.api(
        `/Products/${String(p.Id)}`,
        json(
          [{ op: "replace", path: "/StockOnHand", value: 7 }],
          "PATCH",
          "application/json-patch+json",
        ),
      ),
      200,
    );
    expect(stocked.LastChangedDateTimeOffset).toBe(created);
    expect(Date.parse(String(stocked.StockOnHandLastChangedDatetimeOffset))).toBe(
      Date.parse(created) + 1000,
    );
    expect(await listed(s, `/Products?lastChangedDateTimeOffsetGreaterThan=${created}`)).toEqual(
      [],
    );
    expect(
      await listed(s, `/Products?stockOnHandLastChangedDatetimeOffsetGreaterThan=${created}`),
    ).toEqual(["Kaffe"]);
    advanceClock(1000);
    await body(
      await s.api(
        `/Products/${String(p.Id)}`,
        json(
          [{ op: "replace", path: "/UnitPrice", value: 12 }],
          "PATCH",
          "application/json-patch+json",
        ),
      ),
      200,
    );
    expect(await listed(s, `/Products?lastChangedDateTimeOffsetGreaterThan=${created}`)).toEqual([
      "Kaffe",
    ]);
  });
});

describe("change filters: outgoing invoices", () => {
  it("sentDateTimeOffset… and balanceLastChangedDateTimeOffset… are exclusive; posting sets the balance's stamp", async () => {
    holdClock();
    const s = await session("demo");
    const { invoice: inv } = await invoice(s, 100);
    expect(inv.Balance).toBe(inv.TotalPostedAmount);
    const sent = String(inv.SentDateTimeOffset);
    expect(inv.BalanceLastChangedDateTimeOffset).toBe(inv.CreatedDateTimeOffset);
    expect(
      await listed(s, `/OutgoingInvoices?sentDateTimeOffsetGreaterThan=${sent}`, "InvoiceNo"),
    ).toEqual([]);
    expect(
      await listed(
        s,
        `/OutgoingInvoices?sentDateTimeOffsetGreaterThan=${before(sent)}`,
        "InvoiceNo",
      ),
    ).toEqual([inv.InvoiceNo]);
    const stamp = String(inv.BalanceLastChangedDateTimeOffset);
    expect(
      (await s.api(`/OutgoingInvoices?balanceLastChangedDateTimeOffsetGreaterThan=${stamp}`))
        .status,
    ).toBe(204);
    expect(
      await listed(
        s,
        `/OutgoingInvoices?balanceLastChangedDateTimeOffsetGreaterThan=${documented(before(stamp))}`,
        "InvoiceNo",
      ),
    ).toEqual([inv.InvoiceNo]);
  });

  it("a payment posted with the client's own token moves Balance and BalanceLastChangedDateTimeOffset; its reversal moves them back, later", async () => {
    holdClock();
    const s = await session("demo");
    const { customer, invoice: inv } = await invoice(s, 250);
    const posted = String(inv.BalanceLastChangedDateTimeOffset);
    advanceClock(1000);
    const voucher = await pay(s, customer, inv.InvoiceNo, inv.TotalPostedAmount);
    const [paid] = await body<Dto[]>(
      await s.api(`/OutgoingInvoices?balanceLastChangedDateTimeOffsetGreaterThan=${posted}`),
      200,
    );
    expect(paid).toMatchObject({ InvoiceNo: inv.InvoiceNo, Balance: 0 });
    expect(paid?.TotalPostedAmount).toBeGreaterThan(0);
    expect(Date.parse(String(paid?.BalanceLastChangedDateTimeOffset))).toBe(
      Date.parse(posted) + 1000,
    );
    // Its other stamps stay: the payment is a change of the balance only.
    expect(paid?.SentDateTimeOffset).toBe(inv.SentDateTimeOffset);
    advanceClock(1000);
    await body(await s.api(`/Vouchers/Reverse/${String(voucher.Id)}`, json({})), 200);
    const [open] = await body<Dto[]>(
      await s.api(
        `/OutgoingInvoices?balanceLastChangedDateTimeOffsetGreaterThan=${String(paid?.BalanceLastChangedDateTimeOffset)}`,
      ),
      200,
    );
    expect(open).toMatchObject({ InvoiceNo: inv.InvoiceNo, Balance: inv.TotalPostedAmount });
    expect(Date.parse(String(open?.BalanceLastChangedDateTimeOffset))).toBe(
      Date.parse(posted) + 2000,
    );
  });
});

describe("control: backdating a change (a row committed late)", () => {
  it("sets a record's stamps to an earlier time; a voucher carries its invoice's balance stamp along", async () => {
    holdClock();
    const s = await session("demo");
    const c = await body(await s.api("/Customers", json({ Name: "Late AS" })), 201);
    const earlier = new Date(Date.parse(String(c.LastChangedDateTimeOffset)) - 60_000);
    expect(
      await control("POST", `/clients/demo/${s.clientId}/backdate`, {
        kind: "Customer",
        id: String(c.Id),
        fields: ["LastChangedDateTimeOffset", "CustomerCreatedDateTimeOffset"],
        to: earlier.toISOString(),
      }),
    ).toEqual({
      LastChangedDateTimeOffset: earlier.toISOString(),
      CustomerCreatedDateTimeOffset: earlier.toISOString(),
    });
    const after = new Date(earlier.getTime() + 1).toISOString();
    expect(await listed(s, `/Customers?lastChangedDateTimeOffsetGreaterThan=${after}`)).toEqual([]);
    expect(
      await listed(s, `/Customers?lastChangedDateTimeOffsetGreaterThan=${before(earlier)}`),
    ).toEqual(["Late AS"]);

    const { customer, invoice: inv } = await invoice(s, 80);
    advanceClock(1000);
    const voucher = await pay(s, customer, inv.InvoiceNo, inv.TotalPostedAmount);
    const late = new Date(Date.now() - 30_000).toISOString();
    await control("POST", `/clients/demo/${s.clientId}/backdate`, {
      kind: "Voucher",
      id: String(voucher.Id),
      fields: ["CreatedDateTimeOffset"],
      to: late,
    });
    const [row] = await body<Dto[]>(
      await s.api(`/OutgoingInvoices?invoiceNos=${String(inv.InvoiceNo)}`),
      200,
    );
    expect(row).toMatchObject({ Balance: 0, BalanceLastChangedDateTimeOffset: late });
  });

  it("answers 404 for a record or field that does not exist, 400 for a field that is not a stamp", async () => {
    const s = await session("demo");
    await control(
      "POST",
      `/clients/demo/${s.clientId}/backdate`,
      {
        kind: "Customer",
        id: "999999",
        fields: ["LastChangedDateTimeOffset"],
        to: "2026-01-01T00:00:00Z",
      },
      404,
    );
    await control(
      "POST",
      `/clients/demo/${s.clientId}/backdate`,
      { kind: "Customer", id: "1", fields: ["Name"], to: "2026-01-01T00:00:00Z" },
      400,
    );
  });
});
