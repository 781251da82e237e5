/**
 * @module
 * The declarations of the console's events page (`/console/tenants/{environment}/{client}/events`):
 * the tenant's webhook endpoints with their recent deliveries and failures, and its forms (replay
 * a window, redeliver an event, enable a disabled endpoint). Kept apart from `contract.ts`, as the
 * request log's page is, so the events are one unit behind the session.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { EndpointId, EventId } from "./types";
import { problemResponse } from "../kernel/openapi/problems";
import { SECURITY } from "../kernel/openapi/security";
import { Target } from "../tenant/admin-contract";
import { requireSession } from "../console/guard";

const page = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string() } },
});
const see = (description: string) => ({ description, headers: z.object({ location: z.string() }) });
const form = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/x-www-form-urlencoded": { schema } },
});
const Csrf = z.string().openapi({ description: "The session's CSRF token." });
const base = { tags: ["console"], security: [{ [SECURITY.operatorSession]: [] }] };
const refused = {
  401: page("Not signed in (a form post)."),
  403: page("The form's CSRF token is missing or wrong, or it came from another site."),
  404: page("No such tenant, endpoint or event."),
  413: problemResponse(413),
  429: problemResponse(429),
  503: page("The console is disabled (no usable ADMIN_TOKEN)."),
};
const EndpointTarget = Target.extend({ id: EndpointId });

export const eventsPage = createRoute({
  ...base,
  method: "get",
  middleware: [requireSession({ form: false })],
  path: "/tenants/{environment}/{client}/events",
  operationId: "consoleEvents",
  summary: "A tenant's webhook endpoints, their recent deliveries and failures, and replay",
  request: { params: Target },
  responses: {
    200: page("The endpoints."),
    303: see("Not signed in: to /console/sign-in."),
    404: page("No such tenant."),
    429: problemResponse(429),
    503: page("The console is disabled (no usable ADMIN_TOKEN)."),
  },
});

/** `datetime-local` as a browser sends it, read as UTC (the page says so). */
const LocalTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, "a date and time (UTC)");

export const replayEvents = createRoute({
  ...base,
  method: "post",
  middleware: [requireSession({ form: true })],
  path: "/tenants/{environment}/{client}/events/endpoints/{id}/replay",
  operationId: "consoleReplayEvents",
  summary: "Deliver an endpoint every event of its types in a window again",
  request: {
    params: EndpointTarget,
    body: form(
      z
        .object({
          csrf: Csrf,
          since: LocalTime,
          until: z.union([LocalTime, z.literal("")]).default(""),
        })
        .openapi("ConsoleReplay"),
    ),
  },
  responses: { 303: see("To the events page, with what was queued or why not."), ...refused },
});

export const redeliverEvent = createRoute({
  ...base,
  method: "post",
  middleware: [requireSession({ form: true })],
  path: "/tenants/{environment}/{client}/events/{eventId}/redeliver",
  operationId: "consoleRedeliverEvent",
  summary: "Deliver one event to one endpoint again",
  request: {
    params: Target.extend({ eventId: EventId }),
    body: form(z.object({ csrf: Csrf, endpoint: EndpointId }).openapi("ConsoleRedelivery")),
  },
  responses: { 303: see("To the events page, with what was queued or why not."), ...refused },
});

export const enableEndpoint = createRoute({
  ...base,
  method: "post",
  middleware: [requireSession({ form: true })],
  path: "/tenants/{environment}/{client}/events/endpoints/{id}/enable",
  operationId: "consoleEnableEndpoint",
  summary: "Enable a disabled endpoint again",
  request: { params: EndpointTarget, body: form(z.object({ csrf: Csrf }).openapi("ConsoleForm")) },
  responses: { 303: see("To the events page."), ...refused },
});
