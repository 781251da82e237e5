/**
 * @module
 * Who pays an order's money out to the shop: its payout provider, from the order's source and the
 * payment method the shop names. A clearing account holds one provider's money until that
 * provider's payout, so it returns to zero only if nothing else passes through it (A2X's "one
 * clearing account per gateway"; docs/payouts.md).
 */
import { z } from "zod";
import type { Source } from "../orders/order";

/** The payout providers a Norwegian shop is paid through; `card`: an acquirer such as Nets. */
export const Provider = z.enum(["stripe", "vipps", "klarna", "paypal", "card", "other"]);
export type Provider = z.output<typeof Provider>;

/** A method as it is compared: trimmed, lower case. */
const methodKey = (method: string) => method.trim().toLowerCase();

/**
 * Methods by the names shops give them, first match wins. Stripe comes first: WooCommerce's
 * Stripe plugin names Klarna or Vipps taken through Stripe `stripe_klarna`, and Stripe pays those.
 */
const KNOWN: readonly [RegExp, Provider][] = [
  [/stripe/, "stripe"],
  [/vipps|mobilepay/, "vipps"],
  [/klarna|^kco$/, "klarna"],
  [/paypal|^ppcp/, "paypal"],
  [/nets|nexi|dibs|bambora|worldline|^card$|credit.?card|kort/, "card"],
];

/** The part of the mapping that decides a provider. */
export interface ProviderRules {
  /** The operator's own names (in any case), before the known ones. */
  paymentMethods: Record<string, Provider>;
  /** Where a method no rule knows goes, and an order that names none. */
  unknownPaymentMethod: Provider;
}

/**
 * The provider that pays out an order of `source` paid with `method`. A Stripe order is Stripe's
 * whatever the buyer's method: Stripe's payout carries it.
 *
 * @example providerOf("woocommerce", "vipps", rules) // "vipps"
 */
export function providerOf(
  source: Source,
  method: string | null | undefined,
  rules: ProviderRules,
): Provider {
  if (source === "stripe") return "stripe";
  if (!method) return rules.unknownPaymentMethod;
  const key = methodKey(method);
  const own = Object.entries(rules.paymentMethods).find(([k]) => methodKey(k) === key);
  if (own) return own[1];
  return KNOWN.find(([pattern]) => pattern.test(key))?.[1] ?? rules.unknownPaymentMethod;
}
