/**
 * @module
 * The console's events page and its forms (test, replay, redeliver, enable), behind the session.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { EndpointId, EventId } from "./types";
import { Target } from "../tenant/admin-contract";
import { formBody, htmlPage, redirect } from "../kernel/routes/contract-kit";
import { Csrf, noTenant, post, read, refused, signedOut } from "../console/contract-kit";

const postRefused = { ...refused, 404: htmlPage("No such tenant, endpoint or event.") };
const EndpointTarget = Target.extend({ id: EndpointId });
/** The answers of a replay and of a redelivery: back to the page, saying what was queued. */
const queued = {
  303: redirect("To the events page, with what was queued or why not."),
  ...postRefused,
};

export const eventsPage = createRoute({
  ...read,
  path: "/tenants/{environment}/{client}/events",
  operationId: "consoleEvents",
  summary: "A tenant's webhook endpoints, their recent deliveries and failures, and replay",
  request: { params: Target },
  responses: { 200: htmlPage("The endpoints."), ...noTenant, ...signedOut },
});

/** `datetime-local` as a browser sends it, read as UTC (the page says so). */
const LocalTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, "a date and time (UTC)");

export const replayEvents = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/events/endpoints/{id}/replay",
  operationId: "consoleReplayEvents",
  summary: "Deliver an endpoint every event of its types in a window again",
  request: {
    params: EndpointTarget,
    body: formBody(
      z
        .object({
          csrf: Csrf,
          since: LocalTime,
          until: z.union([LocalTime, z.literal("")]).default(""),
        })
        .openapi("ConsoleReplay"),
    ),
  },
  responses: queued,
});

export const redeliverEvent = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/events/{eventId}/redeliver",
  operationId: "consoleRedeliverEvent",
  summary: "Deliver one event to one endpoint again",
  request: {
    params: Target.extend({ eventId: EventId }),
    body: formBody(z.object({ csrf: Csrf, endpoint: EndpointId }).openapi("ConsoleRedelivery")),
  },
  responses: queued,
});

export const testEndpoint = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/events/endpoints/{id}/test",
  operationId: "consoleTestEndpoint",
  summary: "Send an endpoint a signed test event now",
  request: {
    params: EndpointTarget,
    body: formBody(z.object({ csrf: Csrf }).openapi("ConsoleTestForm")),
  },
  responses: {
    303: redirect("To the events page, with what the receiver answered."),
    ...postRefused,
  },
});

export const enableEndpoint = createRoute({
  ...post,
  path: "/tenants/{environment}/{client}/events/endpoints/{id}/enable",
  operationId: "consoleEnableEndpoint",
  summary: "Enable a disabled endpoint again",
  request: {
    params: EndpointTarget,
    body: formBody(z.object({ csrf: Csrf }).openapi("ConsoleForm")),
  },
  responses: { 303: redirect("To the events page."), ...postRefused },
});
