/**
 * @module
 * The fixed facts a sandbox client is seeded with: a chart of accounts after NS 4102, the standard
 * Norwegian VAT codes (SAF-T standard tax codes) with their rates and direction, and currencies.
 */

/**
 * A standard VAT code: id (the API's VatId, int32), code, rate as a fraction, and whether it is
 * charged on sales or purchases.
 */
export interface VatCodeFact {
  id: number;
  code: string;
  name: string;
  rate: number;
  direction: "output" | "input" | "none";
}

export const VAT_CODES: readonly VatCodeFact[] = [
  { id: 1, code: "0", name: "Ingen mva-behandling", rate: 0, direction: "none" },
  { id: 2, code: "1", name: "Fradrag inngående mva, høy sats", rate: 0.25, direction: "input" },
  {
    id: 3,
    code: "11",
    name: "Fradrag inngående mva, middels sats",
    rate: 0.15,
    direction: "input",
  },
  { id: 4, code: "13", name: "Fradrag inngående mva, lav sats", rate: 0.12, direction: "input" },
  { id: 5, code: "14", name: "Fradrag innførselsmva, høy sats", rate: 0.25, direction: "input" },
  { id: 6, code: "3", name: "Utgående mva, høy sats", rate: 0.25, direction: "output" },
  { id: 7, code: "31", name: "Utgående mva, middels sats", rate: 0.15, direction: "output" },
  { id: 8, code: "33", name: "Utgående mva, lav sats", rate: 0.12, direction: "output" },
  {
    id: 9,
    code: "5",
    name: "Innenlands omsetning fritatt for mva (nullsats)",
    rate: 0,
    direction: "output",
  },
  { id: 10, code: "6", name: "Omsetning utenfor mva-loven", rate: 0, direction: "none" },
  {
    id: 11,
    code: "52",
    name: "Utførsel av varer og tjenester, nullsats",
    rate: 0,
    direction: "output",
  },
  {
    id: 12,
    code: "51",
    name: "Innenlands omsetning med omvendt avgiftsplikt",
    rate: 0,
    direction: "output",
  },
];

/** The account that output and input VAT are posted to. */
export const OUTPUT_VAT_ACCOUNT = 2700;
export const INPUT_VAT_ACCOUNT = 2710;
/** Control accounts of the customer and supplier sub-ledgers. */
export const CUSTOMER_LEDGER_ACCOUNT = 1500;
export const SUPPLIER_LEDGER_ACCOUNT = 2400;
export const EMPLOYEE_LEDGER_ACCOUNT = 2930;

/** Account class (first digit) to GeneralLedgerAccountType. */
export const ACCOUNT_TYPE_BY_CLASS: Record<number, string> = {
  1: "Asset",
  2: "Liability",
  3: "Income",
  4: "Expense",
  5: "Expense",
  6: "Expense",
  7: "Expense",
  8: "Expense",
};

/** The chart of accounts, with the VAT code each account is locked to ("0" when none). */
export const ACCOUNTS: readonly { no: number; name: string; vat: string }[] = [
  { no: 1500, name: "Kundefordringer", vat: "0" },
  { no: 1900, name: "Kontanter", vat: "0" },
  // Clearing accounts (the API's provider suggests 19xx asset accounts per payment method): a paid
  // order waits here until its provider's payout reaches the bank. 1901–1904 per shop source, as
  // tenants from before clearing by provider have them; 1905–1910 per payout provider.
  { no: 1901, name: "Mellomregning Shopify", vat: "0" },
  { no: 1902, name: "Mellomregning WooCommerce", vat: "0" },
  { no: 1903, name: "Mellomregning Stripe", vat: "0" },
  { no: 1904, name: "Mellomregning nettbutikk", vat: "0" },
  { no: 1905, name: "Mellomregning Stripe-utbetaling", vat: "0" },
  { no: 1906, name: "Mellomregning Vipps MobilePay", vat: "0" },
  { no: 1907, name: "Mellomregning Klarna", vat: "0" },
  { no: 1908, name: "Mellomregning PayPal", vat: "0" },
  { no: 1909, name: "Mellomregning kortinnløser", vat: "0" },
  { no: 1910, name: "Mellomregning andre betalinger", vat: "0" },
  { no: 1920, name: "Bankinnskudd", vat: "0" },
  { no: 1950, name: "Bankinnskudd for skattetrekk", vat: "0" },
  { no: 2050, name: "Annen egenkapital", vat: "0" },
  { no: 2400, name: "Leverandørgjeld", vat: "0" },
  { no: 2600, name: "Forskuddstrekk", vat: "0" },
  { no: 2700, name: "Utgående merverdiavgift", vat: "0" },
  { no: 2710, name: "Inngående merverdiavgift", vat: "0" },
  { no: 2740, name: "Oppgjørskonto merverdiavgift", vat: "0" },
  { no: 2930, name: "Skyldig lønn", vat: "0" },
  { no: 3000, name: "Salgsinntekt, avgiftspliktig", vat: "3" },
  { no: 3020, name: "Salgsinntekt, avgiftspliktig, lav sats", vat: "33" },
  { no: 3030, name: "Salgsinntekt, avgiftspliktig, middels sats", vat: "31" },
  { no: 3100, name: "Salgsinntekt, avgiftsfri", vat: "5" },
  { no: 3200, name: "Salgsinntekt, utenfor avgiftsområdet", vat: "6" },
  { no: 3400, name: "Spesielt offentlig tilskudd", vat: "0" },
  { no: 4000, name: "Innkjøp av varer", vat: "1" },
  { no: 4300, name: "Innkjøp av varer for videresalg", vat: "1" },
  { no: 5000, name: "Lønn til ansatte", vat: "0" },
  { no: 5400, name: "Arbeidsgiveravgift", vat: "0" },
  { no: 6300, name: "Leie lokale", vat: "0" },
  { no: 6800, name: "Kontorrekvisita", vat: "1" },
  { no: 6900, name: "Telefon", vat: "1" },
  { no: 7100, name: "Bilgodtgjørelse", vat: "0" },
  { no: 7770, name: "Bank- og kortgebyrer", vat: "0" },
  { no: 7790, name: "Øreavrunding", vat: "0" },
  { no: 7830, name: "Tap på fordringer", vat: "0" },
  { no: 8040, name: "Renteinntekt", vat: "0" },
  { no: 8060, name: "Valutagevinst (agio)", vat: "0" },
  { no: 8140, name: "Rentekostnad", vat: "0" },
  { no: 8160, name: "Valutatap (disagio)", vat: "0" },
  { no: 8800, name: "Årsresultat", vat: "0" },
];

/**
 * Currencies and their rate to NOK per one unit (a fixed sandbox table, varied a little by date).
 */
export const CURRENCIES: readonly { code: string; notation: string; nok: number }[] = [
  { code: "NOK", notation: "kr", nok: 1 },
  { code: "EUR", notation: "€", nok: 11.65 },
  { code: "USD", notation: "$", nok: 10.85 },
  { code: "SEK", notation: "kr", nok: 1.02 },
  { code: "DKK", notation: "kr", nok: 1.56 },
  { code: "GBP", notation: "£", nok: 13.9 },
];
