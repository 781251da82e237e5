/**
 * @module
 * The cheap part of a webhook's check, in the Worker: a delivery without its source's signature
 * headers is refused with the answer the tenant's object gives any unverified one, so a flood of
 * unsigned posts never wakes an object and says nothing of which tenants exist. The signature is
 * checked in the object, by the source's adapter (`orders/adapters/`).
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../kernel/app";
import { Source } from "./order";
import { MAX_SIGNATURE_HEADER_CHARS } from "./adapters/signature";
import { WEBHOOK_UNVERIFIED } from "./adapters/source";
import { problemOf } from "../kernel/outcome";

/** Per source, the headers a signed delivery has: one name of each inner list must be there. */
const SIGNATURE_HEADERS: Record<Source, string[][]> = {
  shopify: [["X-Shopify-Hmac-Sha256", "Shopify-Hmac-Sha256"]],
  woocommerce: [["X-WC-Webhook-Signature"]],
  stripe: [["Stripe-Signature"]],
  standard: [["webhook-id"], ["webhook-timestamp"], ["webhook-signature"]],
};

/** WooCommerce's unsigned activation ping is at most this long, bytes (`isPing`). */
const WOO_PING_MAX_BYTES = 64;

/** Whether one of `names` is present, non-empty and of a length a signature header can have. */
function present(headers: Headers, names: string[]): boolean {
  return names.some((name) => {
    const v = headers.get(name)?.trim();
    return v !== undefined && v !== "" && v.length <= MAX_SIGNATURE_HEADER_CHARS;
  });
}

/**
 * Refuses an unsigned delivery to `/webhooks/{source}/…`; WooCommerce's ping passes.
 *
 * @example app.use("/webhooks/:source/:client/:environment", webhookPrecheck)
 */
export const webhookPrecheck: MiddlewareHandler<GatewayApp> = async function webhookPrecheck(
  c,
  next,
) {
  const source = Source.safeParse(c.req.param("source"));
  // An unknown source names no adapter: the route answers it (404) without any object.
  if (!source.success) return next();
  const headers = c.req.raw.headers;
  const signed = SIGNATURE_HEADERS[source.data].every((names) => present(headers, names));
  const declared = Number(headers.get("content-length") ?? Number.NaN);
  const maybePing =
    source.data === "woocommerce" &&
    !headers.has("X-WC-Webhook-Signature") &&
    declared <= WOO_PING_MAX_BYTES;
  if (!signed && !maybePing)
    throw problemOf({ reason: "bad-signature", detail: WEBHOOK_UNVERIFIED });
  await next();
};
