/**
 * @module
 * The order mapping's form: the general settings, then one group per VAT class.
 */
import { vatField } from "../../../lib/console/mapping-form";
import { VatClass } from "../../../lib/orders/order";
import type { FieldError } from "../../../lib/problem";
import { Csrf } from "../layout";

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

/** The mapping form, filled with `values`; `errors` from a refused save. */
export function MappingFields(p: {
  csrf: string;
  action: string;
  values: Record<string, string>;
  errors?: FieldError[] | undefined;
}) {
  const field = (name: string, label: string) => (
    <>
      <label for={`m-${name}`}>{label}</label>
      <input id={`m-${name}`} name={name} value={p.values[name] ?? ""} autocomplete="off" />
    </>
  );
  return (
    <form method="post" action={p.action}>
      <Csrf token={p.csrf} />
      {p.errors && p.errors.length > 0 ? (
        <div class="error" role="alert">
          <p>The mapping was not saved. Correct these fields:</p>
          <ul>
            {p.errors.map((e) => (
              <li>{`${e.path}: ${e.message}`}</li>
            ))}
          </ul>
        </div>
      ) : null}
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
