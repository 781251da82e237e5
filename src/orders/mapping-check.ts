/**
 * @module
 * The order mapping checked against the client's books when it is saved, not at the first order:
 * each account it names exists and is active, with a VAT code of the right rate; VAT code 0 exists
 * for settlements, and the payouts' fee code. Switching to clearing accounts checks those the
 * sources in use need: per source, or per provider (all of them for a shop, which may take any).
 * Only what the request names is checked: an untouched default may be missing from a chart that
 * never needs it. The books are read through the reference cache. See docs/orders.md.
 */
import type { Bindings } from "../kernel/config";
import { unwrap } from "../kernel/outcome";
import { Problem, type FieldError } from "../kernel/problem";
import { asOperator, type TenantName } from "../kernel/stubs";
import { readBooks, type Books } from "../ledger/books";
import {
  DEFAULT_CLEARING_ACCOUNTS,
  DEFAULT_PROVIDER_ACCOUNTS,
  PayoutAccounts,
  resolveMapping,
  vatPercent,
  type OrderMappingInput,
} from "../ledger/mapping";
import { Source, VatClass } from "./order";
import { NO_VAT_CODE } from "../ledger/replies";
import { Provider } from "../ledger/providers";

/** An account the mapping names: where, which, and the VAT rate it must carry (null: any). */
interface Named {
  path: string;
  accountNo: number;
  percent: number | null;
  role: string;
}

/** The payout accounts of the mapping, by field (the other fields are not accounts). */
const PAYOUT_ACCOUNT_FIELDS = Object.keys(PayoutAccounts.shape).filter((k) =>
  k.endsWith("Account"),
) as (keyof PayoutAccounts & `${string}Account`)[];

/** The clearing accounts a switch must find: those of sources, or of providers, in use. */
export interface ClearingFor {
  sources: Source[];
  providers: Provider[];
}

const NONE: ClearingFor = { sources: [], providers: [] };

/** The accounts `input` names, in field order, and the clearing ones of `clearingFor`. */
export function namedAccounts(input: OrderMappingInput, clearingFor: ClearingFor = NONE): Named[] {
  const out: Named[] = [];
  for (const v of VatClass.options) {
    const accountNo = input.vat?.[v]?.salesAccount;
    if (accountNo !== undefined)
      out.push({
        path: `vat.${v}.salesAccount`,
        accountNo,
        percent: vatPercent(v),
        role: `VAT class ${v}`,
      });
  }
  if (input.settlementAccount != null)
    out.push({
      path: "settlementAccount",
      accountNo: input.settlementAccount,
      percent: null,
      role: "",
    });
  for (const source of Source.options) {
    const accountNo = input.clearingAccounts?.[source];
    if (accountNo !== undefined || clearingFor.sources.includes(source))
      out.push({
        path: `clearingAccounts.${source}`,
        accountNo: accountNo ?? DEFAULT_CLEARING_ACCOUNTS[source],
        percent: null,
        role: "",
      });
  }
  for (const provider of Provider.options) {
    const accountNo = input.providerAccounts?.[provider];
    if (accountNo !== undefined || clearingFor.providers.includes(provider))
      out.push({
        path: `providerAccounts.${provider}`,
        accountNo: accountNo ?? DEFAULT_PROVIDER_ACCOUNTS[provider],
        percent: null,
        role: "",
      });
  }
  for (const field of PAYOUT_ACCOUNT_FIELDS) {
    const accountNo = input.payouts?.[field];
    if (accountNo !== undefined)
      out.push({ path: `payouts.${field}`, accountNo, percent: null, role: "" });
  }
  if (input.roundingAccount !== undefined)
    out.push({
      path: "roundingAccount",
      accountNo: input.roundingAccount,
      percent: 0,
      role: "the rounding product",
    });
  return out;
}

/**
 * A rate in percent from a fraction (0.25, as the sandbox answers) or a percentage: the API does
 * not say which `VatCodeDto.Rate` is, and no VAT rate is 1 % or less but 0.
 */
const percentOf = (rate: number) =>
  rate > 0 && rate <= 1 ? Math.round(rate * 10_000) / 100 : rate;

/** The field path that needs VAT code 0, when the settlement is on and the request touches it. */
function settleCheck(input: OrderMappingInput): string | null {
  if (!resolveMapping(input).settle) return null;
  if (input.settlementAccount !== undefined) return "settlementAccount";
  if (input.clearingAccounts !== undefined) return "clearingAccounts";
  if (input.providerAccounts !== undefined) return "providerAccounts";
  if (input.clearingBy !== undefined) return "clearingBy";
  return input.settle === true ? "settle" : null;
}

/**
 * The errors of `input` against `books`, one per field at fault (none: it fits).
 *
 * @example mappingErrors({ settlementAccount: 1921 }, books) // [{ path: "settlementAccount",
 * message: "account 1921 is not in the client's chart of accounts" }]
 */
export function mappingErrors(
  input: OrderMappingInput,
  books: Books,
  clearingFor: ClearingFor = NONE,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const n of namedAccounts(input, clearingFor)) {
    const account = books.chart.find((a) => a.AccountNo === n.accountNo);
    if (!account) {
      if (books.chartComplete)
        errors.push({
          path: n.path,
          message: `account ${n.accountNo} is not in the client's chart of accounts`,
        });
      continue;
    }
    if (account.IsActive === false) {
      errors.push({
        path: n.path,
        message: `account ${n.accountNo} is inactive in the client's chart of accounts`,
      });
      continue;
    }
    if (n.percent === null || !books.vatCodes || account.VatCode == null) continue;
    const code = books.vatCodes.find((c) => c.Code === account.VatCode);
    if (!code) {
      errors.push({
        path: n.path,
        message: `account ${n.accountNo} has VAT code ${account.VatCode}, which is not among the client's VAT codes`,
      });
      continue;
    }
    const rate = code.Rate == null ? null : percentOf(code.Rate);
    if (rate !== null && rate !== n.percent)
      errors.push({
        path: n.path,
        message: `account ${n.accountNo} has VAT code ${code.Code} (${rate} %), but ${n.role} needs a ${n.percent} % code: name an account that has one`,
      });
  }
  const settle = settleCheck(input);
  if (settle && books.vatCodes && !books.vatCodes.some((c) => c.Code === NO_VAT_CODE))
    errors.push({
      path: settle,
      message: `the client has no VAT code ${NO_VAT_CODE}, which a settlement's bank lines need`,
    });
  const feeCode = input.payouts?.feeVatCode;
  if (feeCode !== undefined && books.vatCodes && !books.vatCodes.some((c) => c.Code === feeCode))
    errors.push({
      path: "payouts.feeVatCode",
      message: `the client has no VAT code ${feeCode}`,
    });
  return errors;
}

/**
 * The errors of `input` against the tenant's books (none: it may be stored), read only as needed.
 *
 * @throws Problem when the books cannot be read (see `readBooks`); nothing is stored then
 * @example if ((await checkMapping(env, name, input)).length) … // show the errors
 */
export async function checkMapping(
  env: Bindings,
  name: TenantName,
  input: OrderMappingInput,
): Promise<FieldError[]> {
  const clearingFor = await clearingInUse(env, name, input);
  const named = namedAccounts(input, clearingFor);
  const withVatCodes =
    named.some((n) => n.percent !== null) ||
    settleCheck(input) !== null ||
    input.payouts?.feeVatCode !== undefined;
  if (named.length === 0 && !withVatCodes) return [];
  return mappingErrors(input, await readBooks(env, name, withVatCodes), clearingFor);
}

/**
 * The clearing accounts `input` switches to, for the sources the tenant takes webhooks from (those
 * with a secret set); none when it switches nothing (`settlementAccount: null`, `clearingBy`).
 */
async function clearingInUse(
  env: Bindings,
  name: TenantName,
  input: OrderMappingInput,
): Promise<ClearingFor> {
  if (input.settlementAccount !== null && input.clearingBy === undefined) return NONE;
  const [status, defaults] = await Promise.all([
    asOperator(env, name, (face) => face.webhookStatus()),
    asOperator(env, name, (face) => face.mappingDefaults()),
  ]);
  const settlement =
    input.settlementAccount === undefined
      ? unwrap(defaults).settlementAccount
      : input.settlementAccount;
  if (settlement !== null) return NONE;
  const sources = unwrap(status)
    .filter((s) => s.secret.set)
    .map((s) => s.source);
  if ((input.clearingBy ?? unwrap(defaults).clearingBy) === "source")
    return { sources, providers: [] };
  const shop = sources.some((s) => s !== "stripe");
  const providers = shop ? Provider.options : sources.length > 0 ? (["stripe"] as const) : [];
  return { sources: [], providers: [...providers] };
}

/**
 * Refuses `input` with a 422 problem listing each field at fault, unless it fits the books.
 *
 * @throws Problem `unprocessable` with `errors`, or what `checkMapping` throws
 */
export async function assertMappingFits(
  env: Bindings,
  name: TenantName,
  input: OrderMappingInput,
): Promise<void> {
  const errors = await checkMapping(env, name, input);
  if (errors.length > 0)
    throw new Problem(
      "unprocessable",
      "The mapping names accounts the client's books do not have as it needs them; nothing was stored. Correct the fields listed.",
      { errors },
    );
}
