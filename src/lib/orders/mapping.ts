/**
 * @module
 * How a tenant's shop orders land in its books (`PUT
 * /admin/tenants/{environment}/{client}/order-mapping`). A sales order line takes no VAT code in
 * the API: it follows the sales account of its product. So each VAT class names the sales account
 * new products get, a shipping product and a fallback product, all on that account. Everything has
 * a default that suits a Norwegian NS 4102 chart.
 */
import { z } from "zod";
import type { VatClass } from "./order";

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
   * `run/customer.ts`.
   */
  customerMatch: z.enum(["verified", "organizationNumber"]).optional(),
  /** The customer's name when `customers` is "webshop". */
  webshopCustomerName: z.string().min(1).max(200).optional(),
  /** How the invoice is delivered (`createAndSendInvoice`'s DeliveryType). */
  deliveryType: z.enum(["Auto", "PdfByEmail", "PdfPrintForDownload"]).optional(),
  /** Whether a paid order gets a bank voucher that settles its invoice. */
  settle: z.boolean().optional(),
  /**
   * The bank or clearing account paid orders are settled to (e.g. 1920 bank, or the payment
   * provider's clearing account).
   */
  settlementAccount: AccountNo.optional(),
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
  .omit({ vat: true })
  .extend({
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

/** The full mapping of `input` (an empty input gives the defaults). */
export function resolveMapping(input: OrderMappingInput = {}): OrderMapping {
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
    settlementAccount: input.settlementAccount ?? 1920,
    roundingProduct: input.roundingProduct ?? "AVRUNDING",
    roundingAccount: input.roundingAccount ?? 3200,
  };
}

/** The VAT rate of a class in percent (zero-rated and exempt lines carry none). */
export function vatPercent(vat: VatClass): number {
  return vat === "25" ? 25 : vat === "15" ? 15 : vat === "12" ? 12 : 0;
}
