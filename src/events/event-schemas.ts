/**
 * @module
 * The events routes' requests and answers, strict, named for the document.
 */
import { z } from "@hono/zod-openapi";
import {
  AttemptView,
  ConsumerName,
  EndpointId,
  EndpointTypes,
  EndpointView,
  EventId,
  MaxPerSecond,
  TestAttempt,
  WebhookEvent,
} from "./types";
import { WatcherView } from "./watcher/view";

// Clones: lib schemas, named here for the document (see `setOrderMapping` in
// tenant/admin-contract.ts).
export const Endpoint = EndpointView.clone().openapi("EventEndpoint", {
  description: "A webhook endpoint: never its secret.",
});
const Event = WebhookEvent.clone().openapi("Event", {
  description: "An event, as the endpoints receive it and the feed lists it.",
});
const Attempt = AttemptView.clone().openapi("DeliveryAttempt");
const Types = EndpointTypes.clone().openapi({
  description: 'Exact event type names, or `["*"]` for every type (the default).',
});

const Ordered = z.boolean().openapi({
  description:
    "Each delivery waits for the one before it (by `timestamp`) to succeed or fail finally: for receivers that apply changes in order. One delivery at a time.",
});

const Pace = MaxPerSecond.clone().openapi({
  description:
    "Deliveries a second at most (1–1000), for a small receiver: more wait their turn, none dropped.",
});

export const NewEndpoint = z
  .strictObject({
    url: z.string().min(1).max(2000).openapi({
      description:
        "https:// on a public address (http:// to loopback only in the local configuration).",
    }),
    types: Types.optional(),
    description: z.string().max(500).optional(),
    maxPerSecond: Pace.optional(),
    ordered: Ordered.optional(),
  })
  .openapi("NewEventEndpoint");
export const Created = z
  .strictObject({
    id: EndpointId,
    url: z.string(),
    types: EndpointTypes,
    secret: z.string().openapi({ description: "The `whsec_` signing secret: shown once." }),
  })
  .openapi("CreatedEventEndpoint");
export const EndpointChange = z
  .strictObject({
    url: NewEndpoint.shape.url.optional(),
    types: Types.optional(),
    description: z.string().max(500).nullable().optional(),
    maxPerSecond: Pace.nullable().optional(),
    ordered: Ordered.optional(),
    enabled: z.boolean().optional().openapi({
      description: "`true` enables a disabled endpoint again; `false` stops its deliveries.",
    }),
  })
  .openapi("EventEndpointChange");
export const Rotated = z
  .strictObject({
    id: EndpointId,
    secret: z.string().openapi({ description: "The new `whsec_` secret: shown once." }),
    previousSecretExpiresAt: z.string().openapi({
      description: "Until then the previous secret signs too (a second `v1,` signature).",
    }),
  })
  .openapi("RotatedEventSecret");
export const Queued = z
  .strictObject({ queued: z.int().min(0).openapi({ description: "Deliveries queued." }) })
  .openapi("QueuedDeliveries");
export const Redelivery = z
  .strictObject({
    endpoint: EndpointId.optional().openapi({
      description: "Only to this endpoint; default: every enabled endpoint taking its type.",
    }),
  })
  .openapi("Redelivery");
export const Replay = z
  .strictObject({
    since: z.iso.datetime({ offset: true }).openapi({ description: "From (ISO 8601), inclusive." }),
    until: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: "Until (ISO 8601), exclusive; default now." }),
  })
  .openapi("Replay");

/** `?after=&types=&limit=` of the feed. */
export const FeedQuery = z.object({
  after: EventId.optional().openapi({
    description: "The last event id you have: events after it.",
  }),
  consumer: ConsumerName.optional().openapi({
    description:
      "A named consumer: the events after the position ledgergate keeps for it, which moves past them (instead of `after`). Made at the log's start when new; at most 20.",
  }),
  types: z
    .string()
    .max(1000)
    .optional()
    .openapi({ description: "Comma-separated event types; default every type." }),
  limit: z.coerce.number().int().min(1).max(500).default(100).openapi({ description: "1–500." }),
});
export const DeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).openapi({ description: "1–200." }),
});
export const ConsumerState = z
  .strictObject({
    name: ConsumerName,
    position: EventId.nullable().openapi({
      description: "The last event handed to it; null: none yet, or no longer in the log.",
    }),
    readAt: z.string().nullable().openapi({ description: "When it last read." }),
  })
  .openapi("EventConsumer");
export const Feed = z
  .strictObject({
    events: z.array(Event),
    hasMore: z.boolean().openapi({ description: "More events follow the last one listed." }),
    consumer: ConsumerState.optional().openapi({
      description: "With `consumer`: where it stands now.",
    }),
  })
  .openapi("EventFeed");
export const Seek = z
  .strictObject({
    after: EventId.optional().openapi({ description: "Read next the events after this one." }),
    at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: "Read next the events recorded from this time (ISO 8601)." }),
    start: z.literal(true).optional().openapi({ description: "Read next from the log's start." }),
  })
  .refine((s) => [s.after, s.at, s.start].filter((x) => x !== undefined).length === 1, {
    message: "give exactly one of after, at and start",
  })
  .openapi("ConsumerSeek");
const Watcher = WatcherView.clone().openapi("EventWatcher", {
  description:
    'The watcher of changes made elsewhere (docs/events.md, "The watcher"): what it polls, how often, and the detection delay expected and measured.',
});
export const Endpoints = z
  .strictObject({ endpoints: z.array(Endpoint), watcher: Watcher })
  .openapi("EventEndpoints");
export const Deliveries = z
  .strictObject({ deliveries: z.array(Attempt) })
  .openapi("DeliveryLog", { description: "Attempts, newest first." });

export const Tested = TestAttempt.clone().openapi("EventTestAttempt", {
  description:
    "The one attempt of a signed `ledgergate.test` event: the receiver's status, or why none came.",
});
