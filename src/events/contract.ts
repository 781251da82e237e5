/**
 * @module
 * The events routes (docs/events.md), declared once for the tenant's key under `/events` and for
 * the operator under `/admin/…/events`, the tenant then named by the path.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { SECURITY } from "../kernel/openapi/security";
import { ConsumerName, EndpointId, EventId } from "./types";
import { jsonGate } from "../kernel/middleware/validate";
import { Target } from "../tenant/admin-contract";
import {
  ConsumerState,
  Created,
  Deliveries,
  DeliveriesQuery,
  Endpoint,
  EndpointChange,
  Endpoints,
  Feed,
  FeedQuery,
  NewEndpoint,
  Queued,
  Redelivery,
  Replay,
  Rotated,
  Seek,
  Tested,
} from "./event-schemas";
import { guarded, guardedJson, jsonAnswer, jsonBody, tagged } from "../kernel/routes/contract-kit";

type Side = "key" | "operator";

/** The routes of one side (`tenant`: the path's tenant parameters, or none). */
function eventContract<
  T extends z.ZodObject,
  E extends z.ZodObject,
  V extends z.ZodObject,
  C extends z.ZodObject,
>(side: Side, tenant: T, endpointParams: E, eventParams: V, consumerParams: C) {
  const operator = side === "operator";
  const events = tagged("events", operator ? SECURITY.operator : SECURITY.gatewayKey);
  const prefix = operator ? "/tenants/{environment}/{client}/events" : "";
  const at = (p: string) => `${prefix}${p}` || "/";
  const id = (name: string) => (operator ? `admin${name[0]?.toUpperCase()}${name.slice(1)}` : name);
  const who = operator ? "a tenant's" : "the tenant's";
  return {
    createEndpoint: createRoute({
      ...events.post,
      path: at("/endpoints"),
      operationId: id("createEventEndpoint"),
      summary: `Add ${who} webhook endpoint; its secret is shown once`,
      middleware: [jsonGate()],
      request: { params: tenant, body: jsonBody(NewEndpoint) },
      responses: {
        201: jsonAnswer("The endpoint, with its secret.", Created),
        ...guardedJson(404, 409),
      },
    }),
    listEndpoints: createRoute({
      ...events.get,
      path: at("/endpoints"),
      operationId: id("listEventEndpoints"),
      summary: `${operator ? "A tenant's" : "The tenant's"} webhook endpoints`,
      request: { params: tenant },
      responses: { 200: jsonAnswer("The endpoints.", Endpoints), ...guarded(404) },
    }),
    getEndpoint: createRoute({
      ...events.get,
      path: at("/endpoints/{id}"),
      operationId: id("getEventEndpoint"),
      summary: "One webhook endpoint",
      request: { params: endpointParams },
      responses: { 200: jsonAnswer("The endpoint.", Endpoint), ...guarded(404) },
    }),
    updateEndpoint: createRoute({
      ...events.patch,
      path: at("/endpoints/{id}"),
      operationId: id("updateEventEndpoint"),
      summary: "Change an endpoint's URL, types or description, or enable or disable it",
      middleware: [jsonGate()],
      request: { params: endpointParams, body: jsonBody(EndpointChange) },
      responses: { 200: jsonAnswer("The endpoint.", Endpoint), ...guardedJson(404) },
    }),
    deleteEndpoint: createRoute({
      ...events.delete,
      path: at("/endpoints/{id}"),
      operationId: id("deleteEventEndpoint"),
      summary: "Delete an endpoint, its pending deliveries and its delivery log",
      request: { params: endpointParams },
      responses: { 204: { description: "Deleted." }, ...guarded(404) },
    }),
    rotateSecret: createRoute({
      ...events.post,
      path: at("/endpoints/{id}/secret"),
      operationId: id("rotateEventSecret"),
      summary: "A new signing secret; the previous one keeps signing for a day",
      request: { params: endpointParams },
      responses: { 200: jsonAnswer("The new secret, shown once.", Rotated), ...guarded(404) },
    }),
    feed: createRoute({
      ...events.get,
      path: at(""),
      operationId: id("listEvents"),
      summary: `${operator ? "A tenant's" : "The tenant's"} events, oldest first: the catch-up feed (30 days)`,
      request: { params: tenant, query: FeedQuery },
      // 409: a named consumer the tenant has no room for.
      responses: { 200: jsonAnswer("The events.", Feed), ...guarded(400, 404, 409) },
    }),
    deliveries: createRoute({
      ...events.get,
      path: at("/endpoints/{id}/deliveries"),
      operationId: id("listEventDeliveries"),
      summary: "An endpoint's delivery attempts, newest first",
      request: { params: endpointParams, query: DeliveriesQuery },
      responses: { 200: jsonAnswer("The attempts.", Deliveries), ...guarded(400, 404) },
    }),
    redeliver: createRoute({
      ...events.post,
      path: at("/{id}/redeliver"),
      operationId: id("redeliverEvent"),
      summary: "Deliver an event again, with its id (from the log, not the API)",
      middleware: [jsonGate({ optional: true })],
      request: { params: eventParams, body: jsonBody(Redelivery, false) },
      responses: { 202: jsonAnswer("Queued.", Queued), ...guardedJson(404, 409) },
    }),
    seekConsumer: createRoute({
      ...events.post,
      path: at("/consumers/{name}/seek"),
      operationId: id("seekEventConsumer"),
      summary: "Move a named consumer after an event, to a time or to the log's start",
      middleware: [jsonGate()],
      request: { params: consumerParams, body: jsonBody(Seek) },
      responses: {
        200: jsonAnswer("Where it stands now.", ConsumerState),
        ...guardedJson(404, 409),
      },
    }),
    testEndpoint: createRoute({
      ...events.post,
      path: at("/endpoints/{id}/test"),
      operationId: id("testEventEndpoint"),
      summary: "Send the endpoint a signed test event now, enabled or not, and answer its attempt",
      request: { params: endpointParams },
      responses: { 200: jsonAnswer("The attempt.", Tested), ...guarded(404) },
    }),
    replay: createRoute({
      ...events.post,
      path: at("/endpoints/{id}/replay"),
      operationId: id("replayEvents"),
      summary: "Deliver an endpoint every event of its types recorded in a time window again",
      middleware: [jsonGate()],
      request: { params: endpointParams, body: jsonBody(Replay) },
      responses: { 202: jsonAnswer("Queued.", Queued), ...guardedJson(404, 409, 422) },
    }),
  };
}

/** The routes under `/events`, for the tenant's gateway key. */
export const keyEventContract = eventContract(
  "key",
  z.object({}),
  z.object({ id: EndpointId }),
  z.object({ id: EventId }),
  z.object({ name: ConsumerName }),
);
/** The routes under `/admin/tenants/{environment}/{client}/events`, for the operator. */
export const operatorEventContract = eventContract(
  "operator",
  Target,
  Target.extend({ id: EndpointId }),
  Target.extend({ id: EventId }),
  Target.extend({ name: ConsumerName }),
);
