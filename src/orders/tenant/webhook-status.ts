/**
 * @module
 * What the operator sees of each webhook source: whether a secret is set and when (never the
 * secret), its shop, and the last accepted and refused deliveries. Read only, from the rows
 * `order-settings.ts` and `shop-pins.ts` keep, one per source.
 */
import { z } from "zod";
import { ADAPTERS } from "../adapters/adapters";
import { Source } from "../order";
import type { OrderSettings } from "./order-settings";
import { BoundBy, type ShopPins } from "./shop-pins";

/** One source's webhook state, as `/admin/tenants/{environment}/{client}/webhooks` answers it. */
export const WebhookStatus = z.strictObject({
  source: Source,
  secret: z.strictObject({
    set: z.boolean(),
    setAt: z.string().nullable().meta({ description: "Null when unset, or set before 2026-11." }),
  }),
  shop: z.strictObject({ domain: z.string(), boundBy: BoundBy }).nullable(),
  lastAccepted: z.strictObject({ at: z.string() }).nullable(),
  lastRefused: z
    .strictObject({
      at: z.string(),
      shop: z.string().nullable(),
      reason: z.string(),
      count: z.int().meta({ description: "Refusals of this source so far." }),
    })
    .nullable(),
});
export type WebhookStatus = z.output<typeof WebhookStatus>;

const iso = (ms: number) => new Date(ms).toISOString();

/** Every source's status, in the adapters' order. */
export function webhookStatus(settings: OrderSettings, pins: ShopPins): WebhookStatus[] {
  return Object.values(ADAPTERS).map(({ source }) => {
    const secret = settings.secretSetAt(source);
    const binding = pins.binding(source);
    const accepted = pins.lastAccepted(source);
    const refused = pins.lastRefusal(source);
    return {
      source,
      secret: { set: secret.set, setAt: secret.at === null ? null : iso(secret.at) },
      shop: binding && { domain: binding.shop, boundBy: binding.boundBy },
      lastAccepted: accepted === null ? null : { at: iso(accepted) },
      lastRefused: refused && {
        at: iso(refused.at),
        shop: refused.shop,
        reason: refused.reason,
        count: refused.count,
      },
    };
  });
}
