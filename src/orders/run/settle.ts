/**
 * @module
 * Step "settle": a bank voucher between the settlement account and the customer's sub-ledger,
 * matched to the invoice or credit note by number; its reference makes a repeat a no-op.
 */
import type { z } from "zod";
import type { BankVoucherLinePost, BankVoucherPost } from "../../../shared/v2/vouchers";
import { toDecimal } from "../../ledger/money";
import type { SettlementIds } from "../port";
import { expectStatus, isDuplicate, RunError, type RunApi } from "../../ledger/run-api";
import type { RunMemory } from "./memory";
import { AccountReply, NO_VAT_CODE, parseRows, VatCodeReply } from "../../ledger/replies";

type VoucherBody = z.input<typeof BankVoucherPost>;
type VoucherLine = z.input<typeof BankVoucherLinePost>;

/** What a settlement posts: `amount` positive for a payment, negative for a refund paid out. */
export interface Settlement extends SettlementIds {
  reference: string;
  invoiceNo: number;
  amount: number;
  currency: string;
  date: string;
  customerAccountId: number;
  description: string;
}

/** Posts the settlement; answers whether this call posted it (false: an earlier attempt had). */
export async function settle(api: RunApi, s: Settlement): Promise<{ posted: boolean }> {
  const line = (accountId: number, amount: number, invoiceNo?: string): VoucherLine => ({
    AccountId: accountId,
    CurrencyAmount: toDecimal(amount),
    CurrencyCode: s.currency,
    VatId: s.noVatId,
    PostingDate: s.date,
    Description: s.description,
    ...(invoiceNo ? { InvoiceNo: invoiceNo } : {}),
  });
  const reply = await api.call<VoucherBody>("POST", "/Vouchers/BankJournals", {
    VoucherDate: s.date,
    CurrencyCode: s.currency,
    ExternalImportReference: s.reference,
    Description: s.description,
    VoucherLines: [
      line(s.settlementAccountId, s.amount),
      line(s.customerAccountId, -s.amount, String(s.invoiceNo)),
    ],
  });
  if (isDuplicate(reply, "ExternalImportReference")) return { posted: false };
  expectStatus(reply, "Posting the settlement", 200, 201);
  return { posted: true };
}

/** The settlement ids of `accountNo`: remembered, or looked up and remembered. */
export async function knownSettlementIds(
  api: RunApi,
  memory: RunMemory,
  accountNo: number,
): Promise<SettlementIds> {
  const known = await memory.settlement(accountNo);
  if (known) return known;
  const ids = await settlementIds(api, accountNo);
  await memory.learn({ settlement: { accountNo, ids } });
  return ids;
}

/** Ids the settlement needs that only the API knows: the account's id and the VatId of code 0. */
export async function settlementIds(api: RunApi, accountNo: number): Promise<SettlementIds> {
  const [account] = parseRows(
    expectStatus(
      await api.call("GET", `/GeneralLedgerAccounts?accountNos=${accountNo}`),
      "Finding the settlement account",
      200,
      204,
    ),
    AccountReply,
  );
  const codes = parseRows(
    expectStatus(await api.call("GET", "/VatCodes"), "Listing VAT codes", 200),
    VatCodeReply,
  );
  const none = codes.find((c) => c.Code === NO_VAT_CODE);
  if (!account)
    throw new RunError(
      `The settlement account ${accountNo} does not exist in the client's chart of accounts; create it (the console's payouts page offers to) or name another in the order mapping (settlementAccount, or the source's clearingAccounts), then retry.`,
      false,
    );
  if (!none) throw new RunError("The client has no VAT code 0 for bank lines.", false);
  return { settlementAccountId: account.Id, noVatId: none.Id };
}
