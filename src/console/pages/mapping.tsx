/**
 * @module
 * The order mapping's form: the general settings, then one group per VAT class.
 */
import { clearingField, payoutField, providerField, vatField } from "../mapping-form";
import { Provider } from "../../ledger/providers";
import { SOURCE_LABELS } from "../views";
import { Source, VatClass } from "../../orders/order";
import type { Flash } from "../flash";
import { Csrf } from "../layout";
import { FormMessage } from "./feedback";

const PROVIDER_LABELS: Record<Provider, string> = {
  stripe: "Stripe",
  vipps: "Vipps MobilePay",
  klarna: "Klarna",
  paypal: "PayPal",
  card: "a card acquirer (Nets…)",
  other: "other",
};
const CHOICES: Record<string, { label: string; options: [string, string][] }> = {
  unknownSkus: {
    label: "Unknown SKUs",
    options: [
      ["create", "create a product"],
      ["fallback", "book to the fallback product"],
    ],
  },
  customers: {
    label: "Customers",
    options: [
      ["create", "find or create each buyer"],
      ["webshop", "one customer for the web shop"],
    ],
  },
  customerMatch: {
    label: "Match existing customers",
    options: [
      ["verified", "only when every detail agrees"],
      ["organizationNumber", "by organization number alone"],
    ],
  },
  deliveryType: {
    label: "Invoice delivery",
    options: [
      ["Auto", "Auto"],
      ["PdfByEmail", "PDF by e-mail"],
      ["PdfPrintForDownload", "PDF to print"],
    ],
  },
  settle: {
    label: "Settle paid orders",
    options: [
      ["yes", "yes"],
      ["no", "no"],
    ],
  },
  shareCalls: {
    label: "Orders on the way together share a delivery check and a voucher",
    options: [
      ["yes", "yes"],
      ["no", "no: a voucher per order"],
    ],
  },
  clearingBy: {
    label: "Clearing accounts",
    options: [
      ["provider", "one per payout provider"],
      ["source", "one per shop source (tenants from before providers)"],
    ],
  },
  unknownPaymentMethod: {
    label: "A payment method no rule knows is paid out by",
    options: Provider.options.map((p) => [p, PROVIDER_LABELS[p]]),
  },
};
const TEXTS: Record<string, string> = {
  webshopCustomerName: "Web shop customer name",
  settlementAccount: "Settlement account",
  roundingProduct: "Rounding product",
  roundingAccount: "Rounding account",
};
const VAT_LABELS: Record<VatClass, string> = {
  "25": "25 %",
  "15": "15 %",
  "12": "12 %",
  zero: "0 % (zero-rated)",
  exempt: "Exempt",
};
const VAT_FIELDS = {
  salesAccount: "Sales account",
  shippingProduct: "Shipping product",
  fallbackProduct: "Fallback product",
} as const;
const PAYOUT_LABELS = {
  bankAccount: "Bank account of payouts",
  feeAccount: "Fee account",
  feeVatCode: "VAT code of fees",
  adjustmentAccount: "Adjustment account",
  disputeAccount: "Dispute account",
  currencyGainAccount: "Currency gain account",
  currencyLossAccount: "Currency loss account",
  unpaidAfterDays: "Unpaid after (days)",
} as const;

/** The label of a field of the form (its name, for one the form does not have). */
export function mappingLabel(name: string): string {
  const vat = /^vat_(.+)_(salesAccount|shippingProduct|fallbackProduct)$/.exec(name);
  if (vat)
    return `${VAT_FIELDS[vat[2] as keyof typeof VAT_FIELDS]}, VAT ${VAT_LABELS[vat[1] as VatClass] ?? vat[1]}`;
  const clearing = /^clearingAccounts_(.+)$/.exec(name);
  if (clearing) return `Clearing account, ${SOURCE_LABELS[clearing[1] as Source] ?? clearing[1]}`;
  const provider = /^providerAccounts_(.+)$/.exec(name);
  if (provider)
    return `Clearing account, ${PROVIDER_LABELS[provider[1] as Provider] ?? provider[1]}`;
  const payout = /^payouts_(.+)$/.exec(name);
  if (payout) return PAYOUT_LABELS[payout[1] as keyof typeof PAYOUT_LABELS] ?? name;
  return CHOICES[name]?.label ?? TEXTS[name] ?? name;
}

/**
 * Why a tenant that settles to one account should switch, shown while it does: the bank account
 * never matches the statement when card and wallet payments are booked there on the day of sale.
 */
function SwitchNote() {
  return (
    <p class="notice" role="note">
      Paid orders settle to one account. When that is the bank (1920), the books show card and
      wallet payments in the bank on the day of sale, but the provider pays them out days later, as
      one deposit less its fees: the bank account never matches the statement and the fees are never
      booked. Empty the settlement account to settle each order to its clearing account, and each
      payout is booked as one voucher that equals the deposit (see the payouts page).
    </p>
  );
}

/**
 * The mapping form, filled with `values` (after a refused save, what was typed); the flash of the
 * last save beside it, and each refused field marked.
 */
export function MappingFields(p: {
  csrf: string;
  action: string;
  values: Record<string, string>;
  flash?: Flash | undefined;
}) {
  const refused = new Set(p.flash?.at === "mapping" ? p.flash.errors?.map((e) => e.field) : []);
  const field = (name: string, label: string) => (
    <>
      <label for={`m-${name}`}>{label}</label>
      <input
        id={`m-${name}`}
        name={name}
        value={p.values[name] ?? ""}
        autocomplete="off"
        aria-invalid={refused.has(name) ? "true" : undefined}
      />
    </>
  );
  return (
    <form method="post" action={p.action}>
      <Csrf token={p.csrf} />
      <FormMessage flash={p.flash} at="mapping" label={mappingLabel} />
      {Object.entries(CHOICES).map(([name, c]) => (
        <>
          <label for={`m-${name}`}>{c.label}</label>
          <select id={`m-${name}`} name={name}>
            {c.options.map(([value, text]) => (
              <option value={value} selected={p.values[name] === value}>
                {text}
              </option>
            ))}
          </select>
        </>
      ))}
      {p.values.settlementAccount ? <SwitchNote /> : null}
      {Object.entries(TEXTS).map(([name, label]) => field(name, label))}
      <fieldset>
        <legend>
          Clearing accounts per provider (paid orders settle here while the settlement account is
          empty)
        </legend>
        {Provider.options.map((provider) =>
          field(providerField(provider), mappingLabel(providerField(provider))),
        )}
      </fieldset>
      <fieldset>
        <legend>Clearing accounts per source (while clearing by source)</legend>
        {Source.options.map((source) =>
          field(clearingField(source), mappingLabel(clearingField(source))),
        )}
      </fieldset>
      <fieldset>
        <legend>Payouts</legend>
        {(Object.keys(PAYOUT_LABELS) as (keyof typeof PAYOUT_LABELS)[]).map((name) =>
          field(payoutField(name), PAYOUT_LABELS[name]),
        )}
      </fieldset>
      {VatClass.options.map((v) => (
        <fieldset>
          <legend>{`VAT ${VAT_LABELS[v]}`}</legend>
          {Object.entries(VAT_FIELDS).map(([f, label]) =>
            field(vatField(v, f as keyof typeof VAT_FIELDS), `${label}, VAT ${VAT_LABELS[v]}`),
          )}
        </fieldset>
      ))}
      <button type="submit">Save mapping</button>
    </form>
  );
}
