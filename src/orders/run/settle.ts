/**
 * @module
 * Step "settle": a bank voucher between the settlement account and the customer's sub-ledger,
 * matched to the invoice or credit note by number; its reference makes a repeat a no-op.
 */
import type { z } from "zod";
import type { BankVoucherPost } from "../../../shared/v2/vouchers";
import { toDecimal } from "../../ledger/money";
import type { SettlementIds } from "../port";
import { expectStatus, isDuplicate, RunError, type RunApi } from "../../ledger/run-api";
import type { RunMemory } from "./memory";
import { AccountReply, NO_VAT_CODE, parseRows, VatCodeReply } from "../../ledger/replies";

export type VoucherBody = z.input<typeof BankVoucherPost>;

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

/** How a voucher post ended: posted now, posted before (its reference taken), or refused. */
export type VoucherOutcome =
  { kind: "posted" } | { kind: "duplicate" } | { kind: "refused"; detail: string };

/**
 * The bank voucher of `items` under `reference`: the customer's line of each, matched to its
 * invoice, and one line per clearing account (a provider's), currency and day for all of them.
 * One item makes exactly the voucher a lone run posts.
 */
export function settlementVoucher(reference: string, items: Settlement[]): VoucherBody {
  const [first] = items;
  if (!first) throw new RunError("A settlement voucher needs at least one line.", false);
  const line = (s: Settlement, accountId: number, amount: number, invoiceNo?: string) => ({
    AccountId: accountId,
    CurrencyAmount: toDecimal(amount),
    CurrencyCode: s.currency,
    VatId: s.noVatId,
    PostingDate: s.date,
    Description: s.description,
    ...(invoiceNo ? { InvoiceNo: invoiceNo } : {}),
  });
  const description =
    items.length === 1 ? first.description : `Settlements of ${items.length} shop orders`;
  // Each line keeps its own day; the voucher's is the latest of them.
  const day = items.reduce((d, s) => (s.date > d ? s.date : d), first.date);
  return {
    VoucherDate: day,
    CurrencyCode: first.currency,
    ExternalImportReference: reference,
    Description: description,
    VoucherLines: [
      ...clearingLines(items).map(([s, amount, n]) => ({
        ...line(s, s.settlementAccountId, amount),
        ...(n > 1 ? { Description: `Settlements of ${n} shop orders` } : {}),
      })),
      ...items.map((s) => line(s, s.customerAccountId, -s.amount, String(s.invoiceNo))),
    ],
  };
}

/** The items' money per clearing account, currency and day: its first item, sum and count. */
function clearingLines(items: Settlement[]): [Settlement, number, number][] {
  const sums = new Map<string, [Settlement, number, number]>();
  for (const s of items) {
    const key = JSON.stringify([s.settlementAccountId, s.currency, s.date]);
    const sum = sums.get(key);
    if (sum) {
      sum[1] += s.amount;
      sum[2] += 1;
    } else sums.set(key, [s, s.amount, 1]);
  }
  return [...sums.values()];
}

/** Posts `body`; a duplicate reference means an earlier post of the same voucher went through. */
export async function postSettlement(api: RunApi, body: VoucherBody): Promise<VoucherOutcome> {
  const reply = await api.call<VoucherBody>("POST", "/Vouchers/BankJournals", body);
  if (isDuplicate(reply, "ExternalImportReference")) return { kind: "duplicate" };
  if (reply.status === 200 || reply.status === 201) return { kind: "posted" };
  return {
    kind: "refused",
    detail: `Posting the settlement answered ${reply.status}: ${reply.detail}`,
  };
}

/** Posts one settlement alone; answers whether this call posted it (false: an earlier had). */
export async function settle(api: RunApi, s: Settlement): Promise<{ posted: boolean }> {
  const outcome = await postSettlement(api, settlementVoucher(s.reference, [s]));
  if (outcome.kind === "refused") throw new RunError(outcome.detail, false);
  return { posted: outcome.kind === "posted" };
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
      `The settlement account ${accountNo} does not exist in the client's chart of accounts; create it (the console's payouts page offers to) or name another in the order mapping (settlementAccount, providerAccounts, or clearingAccounts while clearing by source), then retry.`,
      false,
    );
  if (!none) throw new RunError("The client has no VAT code 0 for bank lines.", false);
  return { settlementAccountId: account.Id, noVatId: none.Id };
}
