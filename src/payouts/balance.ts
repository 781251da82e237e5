/**
 * @module
 * The clearing account's balance on a payout's arrival date, for a payout Stripe cannot itemise:
 * one `GET /TrialBalance`, computed by the API. Beside the payout's amount it tells the operator
 * how much of what the provider owes this payout leaves.
 */
import { z } from "zod";
import { toMinor } from "../ledger/money";
import { expectStatus, RunError, type RunApi } from "../ledger/run-api";
import { parseRows } from "../ledger/replies";

const TrialBalanceRow = z.object({ AccountNo: z.int(), Balance: z.number() });

/** In minor units of the client's currency. */
export async function clearingBalance(
  api: RunApi,
  accountNo: number,
  date: string,
): Promise<number> {
  const rows = parseRows(
    expectStatus(
      await api.call("GET", `/TrialBalance?date=${date}&accountNos=${accountNo}`),
      "Reading the clearing account's balance",
      200,
      204,
    ),
    TrialBalanceRow,
  );
  const row = rows.find((r) => r.AccountNo === accountNo);
  if (!row)
    throw new RunError(
      `The client's chart of accounts has no account ${accountNo}, where the payout's orders settle.`,
      false,
    );
  const minor = toMinor(row.Balance);
  if (minor === null) throw new RunError(`Account ${accountNo}'s balance is not a number.`, false);
  return minor;
}
