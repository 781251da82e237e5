/**
 * @module
 * How a tenant's shop orders land in its books (`PUT
 * /admin/tenants/{environment}/{client}/order-mapping`). A sales order line takes no VAT code in
 * the API: it follows the sales account of its product. So each VAT class names the sales account
 * new products get, a shipping product and a fallback product, all on that account. Everything has
 * a default that suits a Norwegian NS 4102 chart.
 */
import { z } from "zod";
import type { Source, VatClass } from "../orders/order";

const ProductCode = z.string().min(1).max(100);
const AccountNo = z.int().min(1000).max(99_999_999);

/** Where lines of one VAT class go. */
export const VatRoute = z.strictObject({
  /** The sales account of products created for this class; its VAT code sets the line's rate. */
  salesAccount: AccountNo,
  /** The product shipping of this class is invoiced on (created when missing). */
  shippingProduct: ProductCode,
  /**
   * The product for lines without a usable SKU, fees, and unknown SKUs when `unknownSkus` is
   * "fallback".
   */
  fallbackProduct: ProductCode,
});
export type VatRoute = z.output<typeof VatRoute>;

/**
 * NS 4102: 3000 høy sats (code 3), 3030 middels (31), 3020 lav (33), 3100 fritatt (5), 3200 utenfor
 * (6).
 */
export const DEFAULT_VAT_ROUTES: Record<VatClass, VatRoute> = {
  "25": { salesAccount: 3000, shippingProduct: "FRAKT-25", fallbackProduct: "VARE-25" },
  "15": { salesAccount: 3030, shippingProduct: "FRAKT-15", fallbackProduct: "VARE-15" },
  "12": { salesAccount: 3020, shippingProduct: "FRAKT-12", fallbackProduct: "VARE-12" },
  zero: { salesAccount: 3100, shippingProduct: "FRAKT-0", fallbackProduct: "VARE-0" },
  exempt: { salesAccount: 3200, shippingProduct: "FRAKT-FRI", fallbackProduct: "VARE-FRI" },
};

/**
 * Each source's clearing account: where its paid orders wait, as money the payment provider owes
 * the business, until the provider's payout moves them to the bank (`docs/payouts.md`). Defaults in
 * the 19xx range next to the bank, where the API's provider puts an asset account per payment
 * method in its guidance (its examples are 1901–1904): one number per source, in the order they are
 * listed.
 */
export const DEFAULT_CLEARING_ACCOUNTS: Record<Source, number> = {
  shopify: 1901,
  woocommerce: 1902,
  stripe: 1903,
  standard: 1904,
};

/**
 * Where a payout's other lines go (`docs/payouts.md`). NS 4102: 1920 bank, 7770 bank and card
 * fees, 7790 other costs, 7830 losses on receivables, 8060 agio, 8160 disagio; code 0 on fees,
 * because payment processing is exempt from VAT and bought abroad it carries no reverse charge.
 */
export const DEFAULT_PAYOUT_ACCOUNTS = {
  bankAccount: 1920,
  feeAccount: 7770,
  feeVatCode: "0",
  adjustmentAccount: 7790,
  disputeAccount: 7830,
  currencyGainAccount: 8060,
  currencyLossAccount: 8160,
  unpaidAfterDays: 7,
};

/** What the payouts of a tenant are booked to, and when a settled order counts as unpaid. */
export const PayoutAccounts = z.strictObject({
  /** The bank account a payout arrives on: the voucher's debit of the deposit. */
  bankAccount: AccountNo,
  /** Where the provider's fees go. */
  feeAccount: AccountNo,
  /** The VAT code of the fee lines (SAF-T standard code, "0": no VAT treatment). */
  feeVatCode: z.string().regex(/^\d{1,3}$/, "expected a VAT code such as 0 or 86"),
  /** Where an adjustment line goes (a correction, a reserve, a fee refund). */
  adjustmentAccount: AccountNo,
  /** Where a dispute line goes (money the provider took back for a chargeback, and its fee). */
  disputeAccount: AccountNo,
  /** Where a payout in another currency than its orders books what it gained… */
  currencyGainAccount: AccountNo,
  /** …or lost on the rates. */
  currencyLossAccount: AccountNo,
  /** Days after its settlement that an order in no payout is listed as unpaid. */
  unpaidAfterDays: z.int().min(1).max(90),
});
export type PayoutAccounts = z.output<typeof PayoutAccounts>;

const ClearingAccounts = z.strictObject({
  shopify: AccountNo,
  woocommerce: AccountNo,
  stripe: AccountNo,
  standard: AccountNo,
});

/** The mapping as the operator sends it: every field optional, a VAT class may be given in part. */
export const OrderMappingInput = z.strictObject({
  vat: z
    .strictObject({
      "25": VatRoute.partial(),
      "15": VatRoute.partial(),
      "12": VatRoute.partial(),
      zero: VatRoute.partial(),
      exempt: VatRoute.partial(),
    })
    .partial()
    .optional(),
  /**
   * "create": a product per unknown SKU, on its VAT class's account; "fallback": book to the
   * class's fallback product.
   */
  unknownSkus: z.enum(["create", "fallback"]).optional(),
  /** "create": find or create each buyer; "webshop": book every order to one customer. */
  customers: z.enum(["create", "webshop"]).optional(),
  /**
   * When an existing customer is the buyer. "verified" (the default): only when every key the buyer
   * typed agrees with the record, so a typed organization number selects that company's record only
   * if the buyer's e-mail is the record's too, and an e-mail selects a record with another
   * company's organization number never. "organizationNumber": a valid organization number alone
   * selects the record (for shops that verify their business buyers themselves). See
   * `orders/run/customer.ts`.
   */
  customerMatch: z.enum(["verified", "organizationNumber"]).optional(),
  /** The customer's name when `customers` is "webshop". */
  webshopCustomerName: z.string().min(1).max(200).optional(),
  /** How the invoice is delivered (`createAndSendInvoice`'s DeliveryType). */
  deliveryType: z.enum(["Auto", "PdfByEmail", "PdfPrintForDownload"]).optional(),
  /** Whether a paid order gets a bank voucher that settles its invoice. */
  settle: z.boolean().optional(),
  /**
   * One account every paid order is settled to, whatever its source (1920, the bank, is how tenants
   * from before payouts settle); null: each source's clearing account (`clearingAccounts`). Left
   * out: the tenant's default, null for tenants registered since payouts, 1920 for those before
   * (`OrderSettings.mapping`).
   */
  settlementAccount: AccountNo.nullable().optional(),
  /** Each source's clearing account, when `settlementAccount` is null; give any part. */
  clearingAccounts: ClearingAccounts.partial().optional(),
  /** Where payouts are booked; give any part. */
  payouts: PayoutAccounts.partial().optional(),
  /**
   * The product that absorbs an øre of rounding, when the API's per-line VAT rounding and the
   * shop's differ: on a VAT-free account, so it moves the total and nothing else.
   */
  roundingProduct: ProductCode.optional(),
  roundingAccount: AccountNo.optional(),
});
export type OrderMappingInput = z.output<typeof OrderMappingInput>;

/**
 * The mapping with every default filled in: what the tenant's object keeps and the admin API
 * answers.
 */
export const OrderMapping = OrderMappingInput.required()
  .omit({ vat: true, clearingAccounts: true, payouts: true })
  .extend({
    clearingAccounts: ClearingAccounts,
    payouts: PayoutAccounts,
    // Each class by name, like the input's, rather than a record: the document then closes the
    // object and requires every class.
    vat: z.strictObject({
      "25": VatRoute,
      "15": VatRoute,
      "12": VatRoute,
      zero: VatRoute,
      exempt: VatRoute,
    }),
  });
export type OrderMapping = z.output<typeof OrderMapping>;

/** What a tenant's defaults may differ in: where paid orders settle when the mapping says nothing. */
export interface MappingDefaults {
  /** Null: each source's clearing account; 1920 for tenants from before payouts (schema step 11). */
  settlementAccount: number | null;
}

/** The defaults of a tenant registered since payouts. */
export const NEW_TENANT_DEFAULTS: MappingDefaults = { settlementAccount: null };

/** The full mapping of `input` (an empty input gives the defaults). */
export function resolveMapping(
  input: OrderMappingInput = {},
  defaults: MappingDefaults = NEW_TENANT_DEFAULTS,
): OrderMapping {
  const vat = Object.fromEntries(
    (Object.keys(DEFAULT_VAT_ROUTES) as VatClass[]).map((k) => [
      k,
      { ...DEFAULT_VAT_ROUTES[k], ...input.vat?.[k] },
    ]),
  ) as Record<VatClass, VatRoute>;
  return {
    vat,
    unknownSkus: input.unknownSkus ?? "create",
    customers: input.customers ?? "create",
    customerMatch: input.customerMatch ?? "verified",
    webshopCustomerName: input.webshopCustomerName ?? "Nettbutikk",
    deliveryType: input.deliveryType ?? "Auto",
    settle: input.settle ?? true,
    settlementAccount:
      input.settlementAccount === undefined ? defaults.settlementAccount : input.settlementAccount,
    clearingAccounts: { ...DEFAULT_CLEARING_ACCOUNTS, ...input.clearingAccounts },
    payouts: { ...DEFAULT_PAYOUT_ACCOUNTS, ...input.payouts },
    roundingProduct: input.roundingProduct ?? "AVRUNDING",
    roundingAccount: input.roundingAccount ?? 3200,
  };
}

/** The VAT rate of a class in percent (zero-rated and exempt lines carry none). */
export function vatPercent(vat: VatClass): number {
  return vat === "25" ? 25 : vat === "15" ? 15 : vat === "12" ? 12 : 0;
}

/**
 * The account an order of `source` is settled to under `mapping`: the one settlement account, or
 * the source's clearing account.
 */
export function settlementAccountOf(mapping: OrderMapping, source: Source): number {
  return mapping.settlementAccount ?? mapping.clearingAccounts[source];
}
