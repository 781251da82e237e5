/**
 * @module
 * What the events out are made of (docs/events.md), defined once: the object stores by them, the
 * routes answer by them, `/openapi.json` publishes them.
 */
import { z } from "zod";

/**
 * Every event type, in the docs' order: changes in the books, the runs' own outcomes, then the
 * tenant's connection to the API.
 */
export const EVENT_TYPES = [
  "customer.created",
  "customer.updated",
  "product.created",
  "product.updated",
  "outgoing_invoice.created",
  "outgoing_invoice.sent",
  "outgoing_invoice.paid",
  "outgoing_invoice.balance_changed",
  "order.invoiced",
  "order.settled",
  "order.failed",
  "order.cancelled",
  "refund.credited",
  "refund.failed",
  "payout.reconciled",
  "payout.unmatched",
  "tenant.connection_lost",
  "tenant.connection_restored",
  "tenant.privileges_changed",
] as const;

export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.output<typeof EventType>;

/** A name that is no event type is refused with the list of types, so a typo is easy to fix. */
const NOT_A_TYPE = `not an event type; the types are ${EVENT_TYPES.join(", ")}, or "*" alone for every type`;

/** What an endpoint subscribes to: exact type names, or `["*"]` for every type. */
export const EndpointTypes = z
  .array(z.union([EventType, z.literal("*")], { error: NOT_A_TYPE }))
  .min(1)
  .max(EVENT_TYPES.length)
  .refine((t) => !t.includes("*") || t.length === 1, {
    message: 'either "*" alone, or exact type names',
  });
export type EndpointTypes = z.output<typeof EndpointTypes>;

/** Whether an endpoint subscribed to `types` wants an event of `type`. */
export const subscribes = (types: readonly string[], type: string): boolean =>
  types.includes("*") || types.includes(type);

/** An event's id: `evt_` and 26 letters and digits, the same on every attempt and replay. */
export const EventId = z.string().regex(/^evt_[A-Za-z0-9]{26}$/, "not an event id");
/** A named pull consumer (`GET /events?consumer=`). */
export const ConsumerName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "a consumer's name is 1–64 of a–z, 0–9, _ and -");
/** An endpoint's id: `ep_` and 22 letters and digits. */
export const EndpointId = z.string().regex(/^ep_[A-Za-z0-9]{22}$/, "not an endpoint id");

/** An event's data: the record as the API answered it. */
export const EventData = z.record(z.string(), z.unknown());
export type EventData = z.output<typeof EventData>;

/** An event as a receiver gets it and as the feed lists it. */
export const WebhookEvent = z.strictObject({
  id: EventId,
  type: EventType,
  timestamp: z.string().meta({ description: "When the change happened (ISO 8601, UTC)." }),
  data: EventData.meta({
    description:
      "The record as the API (or the order run) answered it; over 20 kB, its id, `changedFields` and those fields' values.",
  }),
});
export type WebhookEvent = z.output<typeof WebhookEvent>;

/** Where an endpoint stands: delivering, or disabled (by its owner, a 410, or days of failure). */
export const EndpointState = z.enum(["enabled", "disabled"]);

/** Deliveries an endpoint takes a second at most; null: as fast as they come. */
export const MaxPerSecond = z.int().min(1).max(1000);

/** An ordered endpoint's queue: the delivery at its head, and how many wait behind it since when. */
export const EndpointHeld = z.strictObject({
  by: EventId.meta({ description: "The event whose delivery the others wait for." }),
  waiting: z.int().min(1),
  since: z.string().meta({ description: "Since when the first of them waits (ISO 8601)." }),
});
export type EndpointHeld = z.output<typeof EndpointHeld>;

/** An endpoint as its owner and the operator see it: never its secret. */
export const EndpointView = z.strictObject({
  id: EndpointId,
  url: z.string(),
  types: EndpointTypes,
  description: z.string().nullable(),
  maxPerSecond: MaxPerSecond.nullable().meta({
    description:
      "Deliveries a second at most; more wait their turn, none dropped (null: no limit).",
  }),
  ordered: z.boolean().meta({
    description:
      "Each delivery waits for the one before it (by `timestamp`) to succeed or fail finally.",
  }),
  held: EndpointHeld.nullable().meta({
    description: "An ordered endpoint's deliveries waiting behind an earlier one (null: none).",
  }),
  state: EndpointState,
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  failingSince: z.string().nullable().meta({
    description: "Since when every attempt failed (null: the last one succeeded, or none yet).",
  }),
  previousSecretExpiresAt: z.string().nullable().meta({
    description: "Until when the secret before the last rotation still signs beside the new one.",
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EndpointView = z.output<typeof EndpointView>;

export const DeliveryState = z.enum(["pending", "delivered", "failed"]);
export type DeliveryState = z.output<typeof DeliveryState>;

/** `test`: a `ledgergate.test` event sent on request (`POST …/endpoints/{id}/test`). */
export const AttemptTrigger = z.enum(["event", "redeliver", "replay", "test"]);
export type AttemptTrigger = z.output<typeof AttemptTrigger>;

/** The type of the test event an endpoint is sent on request; never in the log or the feed. */
export const TEST_EVENT_TYPE = "ledgergate.test";

/** One attempt, as the delivery log shows it. */
export const AttemptView = z.strictObject({
  eventId: EventId,
  type: z.union([EventType, z.literal(TEST_EVENT_TYPE)]),
  attempt: z.int().min(1).meta({ description: "1 for the first attempt of its round." }),
  trigger: AttemptTrigger,
  at: z.string(),
  ok: z.boolean(),
  status: z
    .int()
    .nullable()
    .meta({ description: "The endpoint's answer code; null when none came." }),
  error: z.string().nullable().meta({ description: "Why the attempt failed, when it did." }),
  durationMs: z.int().min(0),
  deliveryState: DeliveryState.meta({
    description:
      "Where the delivery stands now (failed: out of retries, in the dead-letter state).",
  }),
});
export type AttemptView = z.output<typeof AttemptView>;

/** What a test event's one attempt came to (`POST …/endpoints/{id}/test`). */
export const TestAttempt = AttemptView.pick({
  eventId: true,
  type: true,
  at: true,
  ok: true,
  status: true,
  error: true,
  durationMs: true,
});
export type TestAttempt = z.output<typeof TestAttempt>;

/**
 * The queue message: deliver `event` to `endpoint` in round `round`. Written by the tenant's own
 * events object only, so its tenant name is that object's.
 */
export const DeliveryMessage = z.strictObject({
  tenant: z.string().max(80),
  event: EventId,
  endpoint: EndpointId,
  round: z.int().min(1),
});
export type DeliveryMessage = z.output<typeof DeliveryMessage>;

/** An event a writer asks to record: the log gives it its id, and drops a repeat of `key`. */
export interface EventDraft {
  type: EventType;
  /** Epoch ms of the change. */
  at: number;
  data: EventData;
  /** What makes two sightings of one change one event (`events/keys.ts`). */
  key: string;
}
