/**
 * @module
 * The webhook secret form's checks, in the words of its labels, so a refusal goes back to the form
 * (with the shop domain kept and the secret asked for again) instead of to a page of its own.
 */
import type { Source } from "../orders/order";
import { ShopDomain } from "../orders/adapters/shopify";
import { SOURCE_LABELS } from "./views";

/** A refusal of one field, named by its label. */
export interface FormError {
  field: string;
  message: string;
}

/**
 * What is wrong with a submitted secret form, field by field (empty when it may be saved). Only
 * Shopify takes a shop domain, and needs one.
 */
export function secretFormErrors(source: Source, secret: string, shopDomain: string): FormError[] {
  const errors: FormError[] = [];
  const label = `${SOURCE_LABELS[source]} webhook secret`;
  if (secret.length < 8 || secret.length > 500)
    errors.push({ field: label, message: "must be 8 to 500 characters." });
  if (source === "shopify") {
    if (shopDomain === "")
      errors.push({ field: "Shop domain", message: "is required with a Shopify secret." });
    else if (!ShopDomain.safeParse(shopDomain).success)
      errors.push({
        field: "Shop domain",
        message: "must be the shop's myshopify.com address, like example.myshopify.com.",
      });
  } else if (shopDomain !== "") {
    errors.push({ field: "Shop domain", message: "only Shopify is bound to a shop domain." });
  }
  return errors;
}
