/**
 * @module The order mapping as an HTML form, one flat field per setting (`vat_25_salesAccount`),
 * and back. An empty field means "the default", so a save changes only what the operator typed.
 */
import { z } from "zod";
import {
  DEFAULT_VAT_ROUTES,
  OrderMappingInput,
  PayoutAccounts,
  type OrderMapping,
  type VatRoute,
} from "../ledger/mapping";
import { Source, VatClass } from "../orders/order";
import { Provider } from "../ledger/providers";
import { fieldErrors } from "../kernel/validate";
import type { FieldError } from "../kernel/problem";

const VAT_FIELDS = [
  "salesAccount",
  "shippingProduct",
  "fallbackProduct",
] as const satisfies readonly (keyof VatRoute)[];
const SCALARS = [
  "unknownSkus",
  "customers",
  "customerMatch",
  "webshopCustomerName",
  "deliveryType",
  "settle",
  "shareCalls",
  "clearingBy",
  "unknownPaymentMethod",
  "settlementAccount",
  "roundingProduct",
  "roundingAccount",
] as const;
/** The payout settings, each a field `payouts_<name>`. */
const PAYOUT_FIELDS = Object.keys(PayoutAccounts.shape) as (keyof PayoutAccounts)[];
/** Fields holding a whole number (account numbers, days), by their last name. */
const NUMERIC = new Set<string>([
  "salesAccount",
  "settlementAccount",
  "roundingAccount",
  ...Source.options,
  ...Provider.options,
  ...PAYOUT_FIELDS.filter((f) => f !== "feeVatCode"),
]);

export const vatField = (vat: VatClass, field: (typeof VAT_FIELDS)[number]) =>
  `vat_${vat}_${field}`;

export const clearingField = (source: Source) => `clearingAccounts_${source}`;
export const providerField = (provider: Provider) => `providerAccounts_${provider}`;
export const payoutField = (name: keyof PayoutAccounts) => `payouts_${name}`;

export const MAPPING_FIELDS: string[] = [
  ...SCALARS,
  ...VatClass.options.flatMap((v) => VAT_FIELDS.map((f) => vatField(v, f))),
  ...Source.options.map(clearingField),
  ...Provider.options.map(providerField),
  ...PAYOUT_FIELDS.map(payoutField),
];

/** The form's body: every field optional text, plus the CSRF token. */
export const MappingForm = z.object({
  csrf: z.string(),
  ...Object.fromEntries(MAPPING_FIELDS.map((f) => [f, z.string().max(200).optional()])),
});

/** The fields answered yes or no. */
const YES_NO = new Set<string>(["settle", "shareCalls"]);

/** A form value: text as typed, numbers for account fields, the yes-or-no fields as booleans. */
function value(name: string, text: string): string | number | boolean {
  if (YES_NO.has(name)) return text === "yes";
  return NUMERIC.has(name) && /^\d+$/.test(text) ? Number(text) : text;
}

/** The mapping input of a form (blank fields keep their default), or the errors to show. */
export function mappingFromForm(
  form: Record<string, unknown>,
):
  | { ok: true; value: OrderMappingInput }
  | { ok: false; errors: { field: string; message: string }[] } {
  const input: Record<string, unknown> = {};
  const vat: Record<string, Record<string, unknown>> = {};
  const typed = (name: string) => {
    const text = form[name];
    return typeof text === "string" && text.trim() !== "" ? text.trim() : null;
  };
  for (const name of SCALARS) {
    const text = typed(name);
    if (text !== null) input[name] = value(name, text);
  }
  // An empty settlement account is not "the default" but a choice: each source's clearing account
  // (how a tenant with 1920 in the field switches to them).
  if (typeof form.settlementAccount === "string" && form.settlementAccount.trim() === "")
    input.settlementAccount = null;
  for (const v of VatClass.options) {
    for (const f of VAT_FIELDS) {
      const text = typed(vatField(v, f));
      if (text !== null) (vat[v] ??= {})[f] = value(f, text);
    }
  }
  if (Object.keys(vat).length > 0) input.vat = vat;
  const group = (names: readonly string[], field: (n: never) => string) => {
    const out: Record<string, unknown> = {};
    for (const n of names) {
      const text = typed(field(n as never));
      if (text !== null) out[n] = value(n, text);
    }
    return Object.keys(out).length > 0 ? out : undefined;
  };
  input.clearingAccounts = group(Source.options, clearingField);
  input.providerAccounts = group(Provider.options, providerField);
  input.payouts = group(PAYOUT_FIELDS, payoutField);
  const parsed = OrderMappingInput.safeParse(input);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, errors: fieldErrors(parsed.error).map(formError) };
}

/** A mapping error as the form says it: its field's name, and plain words instead of zod's. */
function formError(e: FieldError): { field: string; message: string } {
  const field = e.path.replaceAll(".", "_");
  const leaf = e.path.split(".").pop() ?? "";
  const message =
    leaf === "unpaidAfterDays"
      ? "must be a number of days from 1 to 90."
      : NUMERIC.has(leaf)
        ? "must be an account number: digits only, from 1000."
        : leaf === "feeVatCode"
          ? "must be a VAT code such as 0."
          : /too big|too long/i.test(e.message)
            ? "is too long."
            : "is not one of the choices.";
  return { field, message };
}

/** The typed values of a submitted form, to fill it again after a refusal (no CSRF token). */
export function typedValues(form: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of MAPPING_FIELDS) {
    const text = form[name];
    if (typeof text === "string") out[name] = text;
  }
  return out;
}

export function formOfMapping(m: OrderMapping): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SCALARS)
    out[name] = YES_NO.has(name) ? (m[name] ? "yes" : "no") : String(m[name] ?? "");
  for (const v of VatClass.options)
    for (const f of VAT_FIELDS)
      out[vatField(v, f)] = String((m.vat[v] ?? DEFAULT_VAT_ROUTES[v])[f]);
  for (const source of Source.options)
    out[clearingField(source)] = String(m.clearingAccounts[source]);
  for (const provider of Provider.options)
    out[providerField(provider)] = String(m.providerAccounts[provider]);
  for (const name of PAYOUT_FIELDS) out[payoutField(name)] = String(m.payouts[name]);
  return out;
}

/**
 * Errors of a mapping checked against the client's books, beside the field, in the check's words.
 * @example bookErrors([{ path: "settlementAccount", message: "account 1921 is not in …" }])
 */
export function bookErrors(errors: FieldError[]): { field: string; message: string }[] {
  return errors.map((e) => ({
    field: e.path.replaceAll(".", "_"),
    message: `is refused: ${e.message}.`,
  }));
}
