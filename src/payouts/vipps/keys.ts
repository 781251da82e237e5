/**
 * @module
 * What the operator sends to set a tenant's Vipps MobilePay keys: the sales unit's `client_id`,
 * `client_secret` and subscription key with its merchant serial number (the merchant's own keys,
 * payouts-facts §3), which shop's orders its references name, and the first date to read.
 */
import { z } from "zod";

/** How far back the first date read may be: a quarter. */
export const MAX_SINCE_DAYS = 92;

export const VippsKeysInput = z.strictObject({
  clientId: z.string().min(1).max(200),
  clientSecret: z.string().min(1).max(500),
  subscriptionKey: z.string().min(1).max(200),
  merchantSerialNumber: z
    .string()
    .regex(/^\d{4,10}$/, "the merchant serial number (MSN) is 4 to 10 digits"),
  orderSource: z
    .enum(["shopify", "woocommerce", "standard"])
    .meta({ description: "The shop whose order ids Vipps's `reference`s carry." }),
  referencePrefix: z
    .string()
    .max(40)
    .default("")
    .meta({ description: "What the shop puts before its order id in a reference (`Woo-` …)." }),
  since: z.iso
    .date()
    .optional()
    .meta({
      description: `The first ledger date read; default today; at most ${MAX_SINCE_DAYS} days back.`,
    }),
});
export type VippsKeysInput = z.output<typeof VippsKeysInput>;
