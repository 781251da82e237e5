/**
 * @module
 * Step "settle": a bank voucher that moves the money paid (or paid back) between the settlement
 * account and the customer's sub-ledger, matched to the invoice or credit note by its number. The
 * voucher's ExternalImportReference makes a repeated step a no-op.
 */
import { toDecimal } from "../money";
import { expectStatus, isDuplicate, RunError, type RunApi } from "./api";

/** What a settlement posts. `amount` is positive for a payment, negative for a refund paid out. */
export interface Settlement {
  reference: string;
  invoiceNo: number;
  amount: number;
  currency: string;
  date: string;
  settlementAccountId: number;
  customerAccountId: number;
  /** The VatId of "no VAT" (code 0): bank and customer-ledger lines carry none. */
  noVatId: number;
  description: string;
}

/** Posts the settlement; answers whether this call posted it (false: an earlier attempt had). */
export async function settle(api: RunApi, s: Settlement): Promise<{ posted: boolean }> {
  const line = (accountId: number, amount: number, invoiceNo?: string) => ({
    AccountId: accountId, CurrencyAmount: toDecimal(amount), CurrencyCode: s.currency, VatId: s.noVatId, PostingDate: s.date, Description: s.description, ...(invoiceNo ? { InvoiceNo: invoiceNo } : {}),
  });
  const reply = await api.call("POST", "/Vouchers/BankJournals", {
    VoucherDate: s.date, CurrencyCode: s.currency, ExternalImportReference: s.reference, Description: s.description,
    VoucherLines: [line(s.settlementAccountId, s.amount), line(s.customerAccountId, -s.amount, String(s.invoiceNo))],
  });
  if (isDuplicate(reply, "ExternalImportReference")) return { posted: false };
  expectStatus(reply, "Posting the settlement", 200, 201);
  return { posted: true };
}

/** Ids the settlement needs that only the API knows: the account's id and the VatId of code 0. */
export async function settlementIds(api: RunApi, accountNo: number): Promise<{ settlementAccountId: number; noVatId: number }> {
  const [account] = expectStatus(await api.call("GET", `/GeneralLedgerAccounts?accountNos=${accountNo}`), "Finding the settlement account", 200).body as { Id: number }[];
  const codes = expectStatus(await api.call("GET", "/VatCodes"), "Listing VAT codes", 200).body as { Id: number; Code: string }[];
  const none = codes.find((c) => c.Code === "0");
  if (!account) throw new RunError(`The settlement account ${accountNo} does not exist in the client's chart of accounts; change settlementAccount in the order mapping.`, false);
  if (!none) throw new RunError("The client has no VAT code 0 for bank lines.", false);
  return { settlementAccountId: account.Id, noVatId: none.Id };
}
