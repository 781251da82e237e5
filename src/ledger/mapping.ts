/**
 * @module How a tenant's shop orders land in its books (defaults for an NS 4102 chart). A line
 * takes its VAT from its product's sales account, so each VAT class names an account and products.
 */
import { z } from "zod";
import type { Source, VatClass } from "../orders/order";
import { Provider, providerOf } from "./providers";

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

/**
 * Where a source's paid orders waited until its payout, for tenants from before clearing by
 * provider (`clearingBy: "source"`): their accounts keep these numbers, which no provider reuses.
 */
export const DEFAULT_CLEARING_ACCOUNTS: Record<Source, number> = {
  shopify: 1901,
  woocommerce: 1902,
  stripe: 1903,
  standard: 1904,
};

/**
 * Where a provider's paid orders wait until its payout reaches the bank (`docs/payouts.md`): the
 * 19xx clearing accounts after the per-source ones, so old and new money never share an account.
 */
export const DEFAULT_PROVIDER_ACCOUNTS: Record<Provider, number> = {
  stripe: 1905,
  vipps: 1906,
  klarna: 1907,
  paypal: 1908,
  card: 1909,
  other: 1910,
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

const ProviderAccounts = z.strictObject({
  stripe: AccountNo,
  vipps: AccountNo,
  klarna: AccountNo,
  paypal: AccountNo,
  card: AccountNo,
  other: AccountNo,
});

/** The operator's own methods (a Shopify gateway's or a plugin's name, any case) and providers. */
const PaymentMethods = z
  .record(z.string().min(1).max(100), Provider)
  .refine((r) => Object.keys(r).length <= 50, "at most 50 payment methods");

/** How paid orders are told apart for their clearing accounts. */
export const ClearingBy = z.enum(["provider", "source"]);
export type ClearingBy = z.output<typeof ClearingBy>;

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
  /** One account for every paid order; null: the clearing accounts; absent: the default. */
  settlementAccount: AccountNo.nullable().optional(),
  clearingAccounts: ClearingAccounts.partial().optional(),
  /** "provider": an account per payout provider; "source": per shop source (older tenants). */
  clearingBy: ClearingBy.optional(),
  providerAccounts: ProviderAccounts.partial().optional(),
  paymentMethods: PaymentMethods.optional(),
  unknownPaymentMethod: Provider.optional(),
  payouts: PayoutAccounts.partial().optional(),
  /** Absorbs an øre where the API's per-line VAT rounding differs from the shop's (VAT-free). */
  roundingProduct: ProductCode.optional(),
  roundingAccount: AccountNo.optional(),
});
export type OrderMappingInput = z.output<typeof OrderMappingInput>;

/** The mapping with every default filled in, as the tenant's object keeps it. */
export const OrderMapping = OrderMappingInput.required()
  .omit({ vat: true, clearingAccounts: true, providerAccounts: true, payouts: true })
  .extend({
    clearingAccounts: ClearingAccounts,
    providerAccounts: ProviderAccounts,
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

/**
 * What the mapping means when it says nothing, per tenant: older ones keep booking as they did
 * (1920 for tenants from before payouts, per-source accounts for those from before providers).
 */
export interface MappingDefaults {
  settlementAccount: number | null;
  clearingBy: ClearingBy;
}

export const NEW_TENANT_DEFAULTS: MappingDefaults = {
  settlementAccount: null,
  clearingBy: "provider",
};

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
    clearingBy: input.clearingBy ?? defaults.clearingBy,
    providerAccounts: { ...DEFAULT_PROVIDER_ACCOUNTS, ...input.providerAccounts },
    paymentMethods: input.paymentMethods ?? {},
    unknownPaymentMethod: input.unknownPaymentMethod ?? "other",
    payouts: { ...DEFAULT_PAYOUT_ACCOUNTS, ...input.payouts },
    roundingProduct: input.roundingProduct ?? "AVRUNDING",
    roundingAccount: input.roundingAccount ?? 3200,
  };
}

export function vatPercent(vat: VatClass): number {
  return vat === "25" ? 25 : vat === "15" ? 15 : vat === "12" ? 12 : 0;
}

/**
 * Why `mapping`'s provider accounts would mix money, or null: each must hold exactly one
 * provider's, so none is shared, none is the bank, and none already holds another's (or money
 * settled before providers were told apart: `settled`, from the tenant's runs).
 *
 * @example clearingClash(m, [{ accountNo: 1906, provider: null }]) // { path: "providerAccounts.vipps", … }
 */
export function clearingClash(
  mapping: OrderMapping,
  settled: readonly { accountNo: number; provider: string | null }[],
): { path: string; message: string } | null {
  if (mapping.settlementAccount !== null || mapping.clearingBy !== "provider") return null;
  const seen = new Map<number, Provider>();
  for (const p of Provider.options) {
    const accountNo = mapping.providerAccounts[p];
    const path = `providerAccounts.${p}`;
    const other = seen.get(accountNo);
    if (other)
      return {
        path,
        message: `account ${accountNo} is ${other}'s already: a provider's clearing account holds its money alone`,
      };
    seen.set(accountNo, p);
    if (accountNo === mapping.payouts.bankAccount)
      return { path, message: `account ${accountNo} is the bank account, where a payout lands` };
    const held = settled.find((s) => s.accountNo === accountNo && s.provider !== p);
    if (held)
      return {
        path,
        message: `account ${accountNo} holds ${held.provider === null ? "orders settled by source or to one account" : `${held.provider}'s orders`}; name another, so that its payouts can clear it`,
      };
  }
  return null;
}

/** How an order was paid, as far as its clearing account goes. */
export interface Paid {
  source: Source;
  paymentMethod?: string | null;
}

/** Where `order`'s money waits for its payout, and whose it is. */
export function clearingOf(
  mapping: OrderMapping,
  order: Paid,
): { accountNo: number; provider: Provider } {
  const provider = providerOf(order.source, order.paymentMethod, mapping);
  const accountNo =
    mapping.settlementAccount ??
    (mapping.clearingBy === "provider"
      ? mapping.providerAccounts[provider]
      : mapping.clearingAccounts[order.source]);
  return { accountNo, provider };
}

/** The account `order`'s money settles to now (see `clearingOf`). */
export function settlementAccountOf(mapping: OrderMapping, order: Paid): number {
  return clearingOf(mapping, order).accountNo;
}
