/**
 * The Shopify order the browser tests send: scripts/sample-shopify-order.ts, from one shop, with an
 * order id new for every call.
 */
import { signedShopifyOrder as sample } from "../../scripts/sample-shopify-order.ts";

export const SHOP_DOMAIN = "fjellbutikken.myshopify.com";

/** A Shopify order id (above 2^53, as Shopify's are), new for every call. */
let next = 0;
export function newOrderId(): string {
  return String(5_600_000_000_000 + (Date.now() % 1_000_000) * 100 + next++);
}

/**
 * The delivery of order `orderId` from `SHOP_DOMAIN`, signed with `secret`: headers and the exact
 * body.
 */
export const signedShopifyOrder = (orderId: string, secret: string) =>
  sample(orderId, secret, SHOP_DOMAIN);
