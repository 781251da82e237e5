// The baseline of part 4 of the bench (bench/orders.mjs): what a straightforward integration does
// for the same order, called directly against the sandbox: look the customer up, create it; one
// GET per product and a create for each missing one; create the order; read sentState before
// sending (the send is not idempotent); send; poll sentState (the same waits as ledgergate's run:
// 2 s, 2 s, 3 s …); look the bank account and the VAT code up, post the settlement voucher. It
// paces itself under 10 calls a second so that it meets no 429 (which would only add calls), and
// reuses one token (bench/lib.mjs's `directToken`, fetched outside the count).
import { SB, sleep } from "./lib.mjs";
import { BUYER, CATALOG, ORG_DIGITS, TOTAL } from "./orders-shop.mjs";

/**
 * The straightforward client: its calls counted (`api.calls`) and its failures listed
 * (`api.errors`).
 */
export function naiveClient(keys, token) {
  const sent = [];
  const errors = [];
  const api = async (method, path, body) => {
    // Sliding window: at most 10 calls in any 1.1 s.
    for (;;) {
      const now = Date.now();
      while (sent.length && sent[0] <= now - 1100) sent.shift();
      if (sent.length < 10) break;
      await sleep(sent[0] + 1100 - now);
    }
    sent.push(Date.now());
    api.calls++;
    const res = await fetch(`${SB}/Demo/v2${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "ocp-apim-subscription-key": keys.subscriptionKey,
        accept: "application/json",
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body && JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    if (res.status >= 400 && !(res.status === 404 && path.startsWith("/SalesOrders/sentState")))
      errors.push(`${method} ${path.split("?")[0]} ${res.status}`);
    return { status: res.status, body: parsed, rows: Array.isArray(parsed) ? parsed : [] };
  };
  api.calls = 0;
  api.errors = errors;
  return api;
}

/**
 * The bench order (bench/orders-shop.mjs) done the straightforward way; its invoice number, or
 * null.
 */
export async function naiveOrder(api, id) {
  const today = new Date().toISOString().slice(0, 10);
  let customer = (await api("GET", `/Customers?organizationNumbers=${ORG_DIGITS}`)).rows[0];
  if (!customer) {
    const a = BUYER.address;
    customer = (
      await api("POST", "/Customers", {
        IsPerson: false,
        Name: BUYER.company,
        OrganizationNumber: ORG_DIGITS,
        EmailAddress: BUYER.email,
        InvoiceEmailAddress: BUYER.email,
        PhoneNumber: BUYER.phone,
        MailAddress: {
          AddressLine1: a.line1,
          ZipCode: a.zip,
          City: a.city,
          CountryCode: a.countryCode,
        },
      })
    ).body;
  }
  for (const p of Object.values(CATALOG)) {
    if ((await api("GET", `/Products?codes=${encodeURIComponent(p.sku)}`)).rows.length === 0)
      await api("POST", "/Products", {
        Code: p.sku,
        Name: p.name,
        StandardSalesAccount: p.account,
      });
  }
  const so = (
    await api("POST", "/SalesOrders/Complete", {
      CustomerId: customer.Id,
      ExternalImportReference: `naive:${id}`,
      CurrencyCode: "NOK",
      SalesOrderDate: today,
      CustomerReference: `NB-${id}`,
      SalesOrderLines: [
        {
          ProductCode: CATALOG.pledd.sku,
          Description: CATALOG.pledd.name,
          Quantity: 2,
          ProductUnitPrice: CATALOG.pledd.net,
        },
        {
          ProductCode: CATALOG.kaffe.sku,
          Description: CATALOG.kaffe.name,
          Quantity: 3,
          ProductUnitPrice: CATALOG.kaffe.net,
        },
        {
          ProductCode: CATALOG.frakt.sku,
          Description: CATALOG.frakt.name,
          Quantity: 1,
          ProductUnitPrice: CATALOG.frakt.net,
        },
      ],
    })
  ).body;
  await api("GET", `/SalesOrders/sentState?id=${so.Id}`);
  await api("POST", `/SalesOrders/${so.Id}/createAndSendInvoice`, { DeliveryType: "Auto" });
  let invoiceNo = null;
  for (const wait of [2, 2, 3, 5, 10]) {
    await sleep(wait * 1000);
    const [s] = (await api("GET", `/SalesOrders/sentState?id=${so.Id}`)).rows;
    if (s && !s.IsInvoiceBeingProcessed) {
      invoiceNo = s.InvoiceNo ?? null;
      break;
    }
  }
  const [account] = (await api("GET", "/GeneralLedgerAccounts?accountNos=1920")).rows;
  const noVat = (await api("GET", "/VatCodes")).rows.find((c) => c.Code === "0");
  const line = (accountId, amount, inv) => ({
    AccountId: accountId,
    CurrencyAmount: amount,
    CurrencyCode: "NOK",
    VatId: noVat?.Id,
    PostingDate: today,
    Description: `naive ${id}`,
    ...(inv ? { InvoiceNo: String(inv) } : {}),
  });
  await api("POST", "/Vouchers/BankJournals", {
    VoucherDate: today,
    CurrencyCode: "NOK",
    ExternalImportReference: `naive:p:${id}`,
    Description: `naive ${id}`,
    VoucherLines: [
      line(account?.Id, Number(TOTAL)),
      line(customer.SubledgerAccountId, -Number(TOTAL), invoiceNo),
    ],
  });
  return invoiceNo;
}
