/**
 * @module
 * A payout run's calls to the API: the voucher's ids, its rates, the voucher, its reversal. The
 * voucher's `ExternalImportReference` is the guard: a repeated step finds the voucher the API
 * took instead of posting a second one.
 */
import { z } from "zod";
import { int64 } from "../../shared/v2/schema-kit";
import { expectStatus, isDuplicate, RunError, type RunApi } from "../ledger/run-api";
import { AccountReply, NO_VAT_CODE, parseBody, parseRows, VatCodeReply } from "../ledger/replies";
import type { SettlementIds } from "../orders/port";
import type { BookingPlan } from "./plan";
import { planAccounts, rateKey, type PayoutVoucherBody, type VoucherIds } from "./voucher";

export interface AccountMemory {
  recall(accountNos: number[]): Promise<{ accountNo: number; ids: SettlementIds }[]>;
  learn(found: { accountNo: number; ids: SettlementIds }[]): Promise<void>;
}

const NumberedAccount = AccountReply.extend({ AccountNo: z.int() });
const RateReply = z.object({ ExchangeRate: z.number(), ExchangeBase: z.number().nullish() });
const VoucherReply = z.object({ Id: z.string(), VoucherNo: int64.nullish() });
const PostingReply = z.object({
  VoucherId: z.string().nullish(),
  VoucherNo: int64.nullish(),
  ExternalImportReference: z.string().nullish(),
  IsReversed: z.boolean().nullish(),
});

export interface PostedVoucher {
  id: string;
  number: number | null;
}

/**
 * The ids the voucher needs: remembered, or read in one call for the missing accounts and one for
 * the VAT codes.
 *
 * @throws RunError (not retryable) naming an account the chart lacks, or a VAT code missing
 */
export async function voucherIds(
  api: RunApi,
  memory: AccountMemory,
  plan: BookingPlan,
): Promise<VoucherIds> {
  const wanted = planAccounts(plan);
  const known = await memory.recall(wanted);
  const accounts: Record<number, number> = {};
  for (const k of known) accounts[k.accountNo] = k.ids.settlementAccountId;
  let noVatId = known[0]?.ids.noVatId ?? null;
  const missing = wanted.filter((n) => accounts[n] === undefined);
  let feeVatId = plan.feeVatCode === NO_VAT_CODE ? noVatId : null;
  if (noVatId === null || feeVatId === null) {
    const codes = parseRows(
      expectStatus(await api.call("GET", "/VatCodes"), "Listing VAT codes", 200),
      VatCodeReply,
    );
    noVatId = codes.find((c) => c.Code === NO_VAT_CODE)?.Id ?? null;
    feeVatId = codes.find((c) => c.Code === plan.feeVatCode)?.Id ?? null;
    if (noVatId === null) throw new RunError("The client has no VAT code 0 for bank lines.", false);
    if (feeVatId === null)
      throw new RunError(
        `The client has no VAT code ${plan.feeVatCode}, which the mapping names for fees (payouts.feeVatCode).`,
        false,
      );
  }
  if (missing.length > 0) {
    const rows = parseRows(
      expectStatus(
        await api.call("GET", `/GeneralLedgerAccounts?accountNos=${missing.join(",")}`),
        "Finding the payout's accounts",
        200,
        204,
      ),
      NumberedAccount,
    );
    for (const r of rows) accounts[r.AccountNo] = r.Id;
    const absent = missing.filter((n) => accounts[n] === undefined);
    if (absent.length > 0)
      throw new RunError(
        `The client's chart of accounts has no account ${absent.join(", ")}, which this payout's voucher needs; create it (the console's payouts page offers to) or name another in the order mapping, then retry the payout.`,
        false,
      );
    const found = missing.map((accountNo) => ({
      accountNo,
      ids: { settlementAccountId: accounts[accountNo] ?? 0, noVatId },
    }));
    await memory.learn(found);
  }
  return { accounts, noVatId, feeVatId };
}

/** The rates the plan needs (base currency per unit, by `rateKey`), one call each. */
export async function voucherRates(
  api: RunApi,
  plan: BookingPlan,
  base: string,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const { currency, date } of plan.rates) {
    const reply = expectStatus(
      await api.call(
        "GET",
        `/CurrencyRates?fromCurrency=${currency}&toCurrency=${base}&asOnDate=${date}`,
      ),
      `Reading the ${currency} rate of ${date}`,
      200,
    );
    const r = parseBody(reply, RateReply);
    out[rateKey(currency, date)] = r.ExchangeRate / (r.ExchangeBase || 1);
  }
  return out;
}

/** Posts the voucher, or finds it on `findOn` when an earlier attempt posted it (`first` false). */
export async function postVoucher(
  api: RunApi,
  body: PayoutVoucherBody,
  findOn: number,
): Promise<PostedVoucher & { first: boolean }> {
  const reply = await api.call<PayoutVoucherBody>("POST", "/Vouchers/BankJournals", body);
  if (isDuplicate(reply, "ExternalImportReference")) {
    const found = await findVoucher(
      api,
      body.ExternalImportReference ?? "",
      findOn,
      body.VoucherDate,
    );
    if (!found)
      throw new RunError(
        `The API says the payout's reference ${body.ExternalImportReference} is in use, but no posting of it was found on account ${findOn}; look it up in the books.`,
        false,
      );
    return { ...found, first: false };
  }
  const v = parseBody(expectStatus(reply, "Posting the payout's voucher", 200, 201), VoucherReply);
  return { id: v.Id, number: v.VoucherNo ?? null, first: true };
}

/**
 * The unreversed voucher with `reference` on `accountNo` on `date`, from the account's
 * transactions (the API lists bank vouchers only by id), or null.
 */
export async function findVoucher(
  api: RunApi,
  reference: string,
  accountNo: number,
  date: string,
): Promise<PostedVoucher | null> {
  const rows = parseRows(
    expectStatus(
      await api.call(
        "GET",
        `/AccountTransactions?fromDate=${date}&toDate=${date}&accountNos=${accountNo}`,
      ),
      "Finding the payout's voucher",
      200,
      204,
    ),
    PostingReply,
  );
  const hit = rows.find((r) => r.ExternalImportReference === reference && r.IsReversed !== true);
  return hit?.VoucherId ? { id: hit.VoucherId, number: hit.VoucherNo ?? null } : null;
}

/** Reverses the voucher; true once reversed, by this call or an earlier one (a 409 then). */
export async function reverseVoucher(api: RunApi, id: string): Promise<true> {
  const reply = await api.call("POST", `/Vouchers/Reverse/${id}`, undefined as never);
  if (reply.status === 409 && /already reversed/i.test(reply.detail)) return true;
  expectStatus(reply, "Reversing the payout's voucher", 200, 202, 204);
  return true;
}
