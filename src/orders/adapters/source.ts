/**
 * @module
 * What every shop adapter provides: signature verification over the raw body, the transport's
 * own delivery id for de-duplication, and the mapping of the payload to one `OrderEvent`.
 */
import type { Result } from "../../kernel/result";
import type { OrderEvent, Source } from "../order";

/**
 * The one detail of every webhook refused as unverified: an unknown tenant, no secret for the
 * source, a missing, wrong or stale signature, a replay, another shop's delivery. One text, so a
 * refusal never tells whether the tenant exists; the precise reason goes to the logs only.
 */
export const WEBHOOK_UNVERIFIED =
  "The delivery cannot be verified for this webhook address; nothing was processed.";

/** What a webhook brought: its headers and the exact bytes that were signed. */
export interface Delivery {
  headers: Headers;
  body: Uint8Array;
}

/**
 * Why a delivery is refused before anything starts. `status` is 401 for signature problems, 400 for
 * a body that is not the source's JSON.
 */
export interface Refusal {
  status: 400 | 401;
  detail: string;
}

/**
 * A verified delivery's identity: the event id retries share, and the signed timestamp if the
 * scheme has one.
 */
export interface DeliveryId {
  /**
   * Same across retries of one event (Shopify event id, Stripe event id, webhook-id); null when the
   * source has none (WooCommerce).
   */
  eventId: string | null;
  /** The signed timestamp, epoch seconds, for schemes that sign one (Stripe, Standard Webhooks). */
  signedAt: number | null;
}

/** One shop source. */
export interface SourceAdapter {
  source: Source;
  /**
   * Checks the signature over the raw body with `secret`, in constant time, and (for timestamped
   * schemes) that the timestamp is within tolerance of `now` (epoch ms).
   */
  verify(delivery: Delivery, secret: string, now: number): Promise<Result<DeliveryId, Refusal>>;
  /**
   * Maps a verified body to its events: usually one; a WooCommerce order can say "paid" and carry
   * refunds in the same delivery. A body that is not the source's JSON is a 400 refusal.
   */
  parse(delivery: Delivery): Result<OrderEvent[], Refusal>;
  /**
   * An unsigned delivery the source needs answered 200 without processing (WooCommerce's activation
   * ping).
   */
  isPing?(delivery: Delivery): boolean;
  /**
   * The shop a delivery says it comes from, for sources whose secret can sign for many shops (one
   * Shopify app's client secret signs every shop's webhooks); null when it names none. The tenant
   * pins it, so the same signed body sent to another tenant's address is refused.
   */
  shopOf?(delivery: Delivery): string | null;
}
