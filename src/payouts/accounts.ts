/**
 * @module
 * The accounts a tenant's settlements and payouts post to, checked against the client's chart for
 * the console's payouts page, and a missing one created through the API at the operator's word
 * (`POST /GeneralLedgerAccounts`, as the tenant, VAT code 0: none of these lines carries VAT). The
 * chart is read through the reference cache (`ledger/books.ts`), and a creation forgets it.
 */
import { readConfig, type Bindings } from "../kernel/config";
import { readBooks } from "../ledger/books";
import { DEFAULT_PAYOUT_ACCOUNTS, type OrderMapping } from "../ledger/mapping";
import { Source } from "../orders/order";
import { unwrap } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { resourceOf } from "../v2/shaping/reference-cache";
import { asOperator, parseTenantName, type TenantName } from "../kernel/stubs";
import { callUpstream } from "../upstream/client";

/** How long a creation may take, ms, a wait for a permit included: the operator is waiting. */
const CREATE_DEADLINE_MS = 10_000;

/** One account the mapping posts to: what for, its number, the name it is created with. */
export interface AccountRole {
  role: string;
  accountNo: number;
  name: string;
}

/** An account the mapping posts to, and whether the chart has it (null: the chart was cut off). */
export interface AccountCheck extends AccountRole {
  present: boolean | null;
}

const SOURCE_NAMES: Record<Source, string> = {
  shopify: "Shopify",
  woocommerce: "WooCommerce",
  stripe: "Stripe",
  standard: "nettbutikk",
};

/** NS 4102's names of the payout accounts' defaults; another number is named by its role. */
const NAMES: Record<number, string> = {
  [DEFAULT_PAYOUT_ACCOUNTS.bankAccount]: "Bankinnskudd",
  [DEFAULT_PAYOUT_ACCOUNTS.feeAccount]: "Bank- og kortgebyrer",
  [DEFAULT_PAYOUT_ACCOUNTS.adjustmentAccount]: "Annen kostnad",
  [DEFAULT_PAYOUT_ACCOUNTS.disputeAccount]: "Tap på fordringer",
  [DEFAULT_PAYOUT_ACCOUNTS.currencyGainAccount]: "Valutagevinst (agio)",
  [DEFAULT_PAYOUT_ACCOUNTS.currencyLossAccount]: "Valutatap (disagio)",
};

/** The accounts `mapping` settles and books payouts to, each once, in the order they are used. */
export function accountRoles(mapping: OrderMapping): AccountRole[] {
  const p = mapping.payouts;
  const settle =
    mapping.settlementAccount === null
      ? Source.options.map((s) => ({
          role: `clearing account, ${s}`,
          accountNo: mapping.clearingAccounts[s],
          name: `Mellomregning ${SOURCE_NAMES[s]}`,
        }))
      : [{ role: "settlement account", accountNo: mapping.settlementAccount, name: "Oppgjør" }];
  const named = (role: string, accountNo: number) => ({
    role,
    accountNo,
    name: NAMES[accountNo] ?? role,
  });
  const all = [
    ...settle,
    named("bank account of payouts", p.bankAccount),
    named("fees", p.feeAccount),
    named("adjustments", p.adjustmentAccount),
    named("disputes", p.disputeAccount),
    named("currency gain", p.currencyGainAccount),
    named("currency loss", p.currencyLossAccount),
  ];
  return all.filter((a, i) => all.findIndex((b) => b.accountNo === a.accountNo) === i);
}

/** The mapping's accounts against the client's chart (one read, cached). */
export async function checkAccounts(
  env: Bindings,
  name: TenantName,
  mapping: OrderMapping,
): Promise<AccountCheck[]> {
  const books = await readBooks(env, name, false);
  return accountRoles(mapping).map((a) => {
    const found = books.chart.some((c) => c.AccountNo === a.accountNo);
    return { ...a, present: found ? true : books.chartComplete ? false : null };
  });
}

/**
 * Creates account `role.accountNo` in the client's chart, as the tenant; the cached chart is
 * forgotten, so the next check reads the new one.
 *
 * @throws Problem when the API refuses or cannot be reached (nothing created then)
 */
export async function createAccount(env: Bindings, name: TenantName, role: AccountRole) {
  const parsed = parseTenantName(name);
  if (!parsed.ok) throw new Problem("not-found", "No such tenant.");
  const registration = unwrap(await asOperator(env, name, (face) => face.registrationId()));
  const config = readConfig(env).environments[parsed.value.environment];
  if (!config.ok) throw new Problem("unavailable", config.detail);
  const body = { AccountNo: role.accountNo, Name: role.name, IsActive: true, VatCode: "0" };
  const res = await callUpstream(
    {
      env,
      environment: parsed.value.environment,
      config: config.config,
      tenant: name,
      credential: { registration },
    },
    {
      method: "POST",
      path: "/GeneralLedgerAccounts",
      search: "",
      headers: new Headers({ "content-type": "application/json", "user-agent": "ledgergate" }),
      body: new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer,
      deadline: Date.now() + CREATE_DEADLINE_MS,
    },
  );
  const text = await res.text();
  await asOperator(env, name, (face) => face.referenceForget(resourceOf("/GeneralLedgerAccounts")));
  if (res.ok) return;
  throw new Problem(
    "upstream-failed",
    `The accounting API answered HTTP ${res.status} to creating account ${role.accountNo}: ${text.slice(0, 300)}`,
  );
}
