/**
 * @module
 * The accounts a tenant's settlements and payouts post to, checked against the client's chart,
 * and a missing one created at the operator's word (VAT code 0: none of these lines carries VAT).
 */
import { readConfig, type Bindings } from "../kernel/config";
import { readBooks } from "../ledger/books";
import { DEFAULT_PAYOUT_ACCOUNTS, type OrderMapping } from "../ledger/mapping";
import { Source } from "../orders/order";
import { Provider } from "../ledger/providers";
import { unwrap } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { resourceOf } from "../v2/shaping/reference-cache";
import { asOperator, parseTenantName, type TenantName } from "../kernel/stubs";
import { callUpstream } from "../upstream/client";

/** How long a creation may take, ms, a wait for a permit included: the operator is waiting. */
const CREATE_DEADLINE_MS = 10_000;

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

/** A provider's clearing account as an accountant names it (apart from the per-source 1903). */
const PROVIDER_NAMES: Record<Provider, string> = {
  stripe: "Mellomregning Stripe-utbetaling",
  vipps: "Mellomregning Vipps MobilePay",
  klarna: "Mellomregning Klarna",
  paypal: "Mellomregning PayPal",
  card: "Mellomregning kortinnløser",
  other: "Mellomregning andre betalinger",
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

/** The clearing accounts `mapping` settles to: one per provider, or per source for older tenants. */
function clearingRoles(mapping: OrderMapping): AccountRole[] {
  if (mapping.settlementAccount !== null)
    return [{ role: "settlement account", accountNo: mapping.settlementAccount, name: "Oppgjør" }];
  if (mapping.clearingBy === "source")
    return Source.options.map((s) => ({
      role: `clearing account, ${s}`,
      accountNo: mapping.clearingAccounts[s],
      name: `Mellomregning ${SOURCE_NAMES[s]}`,
    }));
  return Provider.options.map((p) => ({
    role: `clearing account, ${p}`,
    accountNo: mapping.providerAccounts[p],
    name: PROVIDER_NAMES[p],
  }));
}

/** The accounts `mapping` settles and books payouts to, each once. */
export function accountRoles(mapping: OrderMapping): AccountRole[] {
  const p = mapping.payouts;
  const settle = clearingRoles(mapping);
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

/** The mapping's accounts against the client's chart (one cached read). */
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
 * Creates the account in the client's chart, as the tenant, and forgets the cached chart.
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
