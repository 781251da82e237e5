/**
 * @module
 * The cheap part of a webhook's check, in the Worker, before the tenant's object is addressed. A
 * delivery that lacks its source's signature header cannot be verified, whichever tenant it names,
 * so it is refused here, with the very answer the tenant's object gives any unverified delivery
 * (`WEBHOOK_UNVERIFIED`): a flood of unsigned posts to made-up addresses never wakes, or creates,
 * an object, and the answer says nothing about whether the tenant exists. The signature itself is
 * checked in the object, with the tenant's secret, by the source's adapter (`orders/adapters/`);
 * this list only names the headers those adapters read.
 */
import type { MiddlewareHandler } from "hono";
import type { GatewayApp } from "../kernel/app";
import { Source } from "./order";
import { MAX_SIGNATURE_HEADER_CHARS } from "./adapters/signature";
import { WEBHOOK_UNVERIFIED } from "./adapters/source";
import { problemOf } from "../kernel/outcome";

/**
 * Per source, the headers a signed delivery carries: every inner list must have one of its names.
 */
const SIGNATURE_HEADERS: Record<Source, string[][]> = {
  shopify: [["X-Shopify-Hmac-Sha256", "Shopify-Hmac-Sha256"]],
  woocommerce: [["X-WC-Webhook-Signature"]],
  stripe: [["Stripe-Signature"]],
  standard: [["webhook-id"], ["webhook-timestamp"], ["webhook-signature"]],
};

/**
 * WooCommerce's activation ping is unsigned and at most this long, bytes (`woocommerce.ts`
 * `isPing`).
 */
const WOO_PING_MAX_BYTES = 64;

/** Whether one of `names` is present, non-empty and of a length a signature header can have. */
function present(headers: Headers, names: string[]): boolean {
  return names.some((name) => {
    const v = headers.get(name)?.trim();
    return v !== undefined && v !== "" && v.length <= MAX_SIGNATURE_HEADER_CHARS;
  });
}

/**
 * Refuses an unsigned delivery to `/webhooks/{source}/…` in the Worker. WooCommerce's ping (no
 * signature, a declared body of at most 64 bytes) passes, for its adapter to recognise.
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
