/**
 * @module
 * What every shop adapter provides: signature verification over the raw body, the delivery's id
 * for de-duplication, and the mapping of the payload to `OrderEvent`s.
 */
import type { Result } from "../../kernel/result";
import type { OrderEvent, Source } from "../order";

/** The one detail of every unverified webhook, so a refusal never tells whether a tenant exists. */
export const WEBHOOK_UNVERIFIED =
  "The delivery cannot be verified for this webhook address; nothing was processed.";

export interface Delivery {
  headers: Headers;
  body: Uint8Array;
}

/** Why a delivery is refused: 401 for its signature, 400 for a body not the source's JSON. */
export interface Refusal {
  status: 400 | 401;
  detail: string;
}

/** A verified delivery's identity: the event id its retries share, and its signed time (s). */
export interface DeliveryId {
  eventId: string | null;
  signedAt: number | null;
}

export interface SourceAdapter {
  source: Source;
  /** Checks the signature with `secret`, and a signed timestamp against `now` (epoch ms). */
  verify(delivery: Delivery, secret: string, now: number): Promise<Result<DeliveryId, Refusal>>;
  /** Maps a verified body to its events (a WooCommerce order may be paid and carry refunds). */
  parse(delivery: Delivery): Result<OrderEvent[], Refusal>;
  /** An unsigned delivery to answer 200 without processing (WooCommerce's ping). */
  isPing?(delivery: Delivery): boolean;
  /**
   * The shop a delivery names, for sources whose secret signs for many shops (Shopify); null when
   * it names none. The tenant admits only its bound shop.
   */
  shopOf?(delivery: Delivery): string | null;
}
