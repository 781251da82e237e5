/**
 * @module How a tenant's shop orders land in its books (defaults for an NS 4102 chart). A line
 * takes its VAT from its product's sales account, so each VAT class names an account and products.
 */
import { z } from "zod";
import type { Source, VatClass } from "../orders/order";

const ProductCode = z.string().min(1).max(100);
const AccountNo = z.int().min(1000).max(99_999_999);

export const VatRoute = z.strictObject({
  salesAccount: AccountNo,
  shippingProduct: ProductCode,
  /** For lines without a usable SKU, fees, and unknown SKUs under `unknownSkus: "fallback"`. */
  fallbackProduct: ProductCode,
});
export type VatRoute = z.output<typeof VatRoute>;

/** NS 4102: 3000 høy (VAT code 3), 3030 middels (31), 3020 lav (33), 3100 fritatt (5), 3200 (6). */
export const DEFAULT_VAT_ROUTES: Record<VatClass, VatRoute> = {
  "25": { salesAccount: 3000, shippingProduct: "FRAKT-25", fallbackProduct: "VARE-25" },
  "15": { salesAccount: 3030, shippingProduct: "FRAKT-15", fallbackProduct: "VARE-15" },
  "12": { salesAccount: 3020, shippingProduct: "FRAKT-12", fallbackProduct: "VARE-12" },
  zero: { salesAccount: 3100, shippingProduct: "FRAKT-0", fallbackProduct: "VARE-0" },
  exempt: { salesAccount: 3200, shippingProduct: "FRAKT-FRI", fallbackProduct: "VARE-FRI" },
};

/** Where a source's paid orders wait until its payout reaches the bank (`docs/payouts.md`). */
export const DEFAULT_CLEARING_ACCOUNTS: Record<Source, number> = {
  shopify: 1901,
  woocommerce: 1902,
  stripe: 1903,
  standard: 1904,
};

/** Where a payout's lines go (NS 4102); VAT code 0 on fees: payment processing is VAT-exempt. */
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

export const PayoutAccounts = z.strictObject({
  bankAccount: AccountNo,
  feeAccount: AccountNo,
  /** A SAF-T standard code ("0": no VAT treatment). */
  feeVatCode: z.string().regex(/^\d{1,3}$/, "expected a VAT code such as 0 or 86"),
  adjustmentAccount: AccountNo,
  disputeAccount: AccountNo,
  currencyGainAccount: AccountNo,
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
  /** "create": a product per unknown SKU; "fallback": the class's fallback product. */
  unknownSkus: z.enum(["create", "fallback"]).optional(),
  /** "webshop": every order to one customer. */
  customers: z.enum(["create", "webshop"]).optional(),
  /** "verified": a record is the buyer only if every key the buyer typed agrees with it. */
  customerMatch: z.enum(["verified", "organizationNumber"]).optional(),
  webshopCustomerName: z.string().min(1).max(200).optional(),
  deliveryType: z.enum(["Auto", "PdfByEmail", "PdfPrintForDownload"]).optional(),
  settle: z.boolean().optional(),
  /** false: every run makes its own delivery check and voucher, however many are on the way. */
  shareCalls: z.boolean().optional(),
  /** One account for every paid order; null: the sources' clearing accounts; absent: default. */
  settlementAccount: AccountNo.nullable().optional(),
  clearingAccounts: ClearingAccounts.partial().optional(),
  payouts: PayoutAccounts.partial().optional(),
  /** Absorbs an øre where the API's per-line VAT rounding differs from the shop's (VAT-free). */
  roundingProduct: ProductCode.optional(),
  roundingAccount: AccountNo.optional(),
});
export type OrderMappingInput = z.output<typeof OrderMappingInput>;

/** The mapping with every default filled in, as the tenant's object keeps it. */
export const OrderMapping = OrderMappingInput.required()
  .omit({ vat: true, clearingAccounts: true, payouts: true })
  .extend({
    clearingAccounts: ClearingAccounts,
    payouts: PayoutAccounts,
    // By name, not a record: the document then closes the object and requires every class.
    vat: z.strictObject({
      "25": VatRoute,
      "15": VatRoute,
      "12": VatRoute,
      zero: VatRoute,
      exempt: VatRoute,
    }),
  });
export type OrderMapping = z.output<typeof OrderMapping>;

/** Where paid orders settle when the mapping says nothing: null, or 1920 for older tenants. */
export interface MappingDefaults {
  settlementAccount: number | null;
}

export const NEW_TENANT_DEFAULTS: MappingDefaults = { settlementAccount: null };

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
    shareCalls: input.shareCalls ?? true,
    settlementAccount:
      input.settlementAccount === undefined ? defaults.settlementAccount : input.settlementAccount,
    clearingAccounts: { ...DEFAULT_CLEARING_ACCOUNTS, ...input.clearingAccounts },
    payouts: { ...DEFAULT_PAYOUT_ACCOUNTS, ...input.payouts },
    roundingProduct: input.roundingProduct ?? "AVRUNDING",
    roundingAccount: input.roundingAccount ?? 3200,
  };
}

export function vatPercent(vat: VatClass): number {
  return vat === "25" ? 25 : vat === "15" ? 15 : vat === "12" ? 12 : 0;
}

export function settlementAccountOf(mapping: OrderMapping, source: Source): number {
  return mapping.settlementAccount ?? mapping.clearingAccounts[source];
}
