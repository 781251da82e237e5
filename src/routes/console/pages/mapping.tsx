/**
 * @module
 * The order mapping's form: the general settings, then one group per VAT class.
 */
import { vatField } from "../../../lib/console/mapping-form";
import { VatClass } from "../../../lib/orders/order";
import type { Flash } from "../../../lib/console/flash";
import { Csrf } from "../layout";
import { FormMessage } from "./feedback";

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

/** The label of a field of the form (its name, for one the form does not have). */
export function mappingLabel(name: string): string {
  const vat = /^vat_(.+)_(salesAccount|shippingProduct|fallbackProduct)$/.exec(name);
  if (vat)
    return `${VAT_FIELDS[vat[2] as keyof typeof VAT_FIELDS]}, VAT ${VAT_LABELS[vat[1] as VatClass] ?? vat[1]}`;
  return CHOICES[name]?.label ?? TEXTS[name] ?? name;
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
      {Object.entries(TEXTS).map(([name, label]) => field(name, label))}
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
