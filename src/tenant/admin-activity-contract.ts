/**
 * @module
 * The declarations of what happened for a tenant (`/admin`, operator token): its request log, its
 * webhooks' status, and the assistants connected through OAuth (listed and revoked).
 * `tenant/admin-routes.ts` binds a handler to each.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { GrantId, GrantView } from "../assistants/tenant/assistant-grants";
import { WebhookStatus } from "../orders/tenant/webhook-status";
import { SECURITY } from "../kernel/openapi/security";
import { Cursor, Recording, RequestView, StatusParam } from "../request-log/view";
import { CallerKind } from "../request-log/tenant-rows";
import { Target } from "./admin-contract";
import { guarded, jsonAnswer, tagged } from "../kernel/routes/contract-kit";

const admin = tagged("admin", SECURITY.operator);

/** Whose calls: one stored kind, named in the refusal of any other value. */
const CallerParam = z.enum(CallerKind.options, {
  error: `caller is one of ${CallerKind.options.join(", ")}`,
});

/** `?status=&caller=&limit=&before=` of the request log; any other parameter is refused. */
export const RequestsQuery = z.strictObject({
  status: StatusParam.optional().openapi({
    description: "An exact status (`404`) or a class (`4xx`).",
  }),
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/)
    .optional()
    .openapi({ description: "1–200 calls; default 50." }),
  before: Cursor.optional().openapi({ description: "A `cursor` of the previous page." }),
  caller: CallerParam.optional().openapi({
    description:
      "Only one caller's calls (`watcher`: the watcher's, kept apart and hidden without this). Without it, every caller's but the watcher's.",
  }),
});

const Requests = z
  .strictObject({
    requests: z.array(RequestView.clone().openapi("LoggedRequest")),
    next: z.string().nullable().openapi({ description: "`before` for the next page, or null." }),
    recording: Recording,
  })
  .openapi("RequestLog");

export const listRequests = createRoute({
  ...admin.get,
  path: "/tenants/{environment}/{client}/requests",
  operationId: "listRequests",
  summary: "The tenant's last API calls (1,000 or 7 days), newest first",
  request: { params: Target, query: RequestsQuery },
  responses: { 200: jsonAnswer("The calls, newest first.", Requests), ...guarded(400, 404) },
});

const Webhooks = z
  .strictObject({ sources: z.array(WebhookStatus.clone().openapi("WebhookSourceStatus")) })
  .openapi("WebhookStatus");

export const webhookStatus = createRoute({
  ...admin.get,
  path: "/tenants/{environment}/{client}/webhooks",
  operationId: "webhookStatus",
  summary: "Each webhook source: its secret (set, when), shop, last accepted and refused delivery",
  request: { params: Target },
  responses: { 200: jsonAnswer("One row per source.", Webhooks), ...guarded(404) },
});

const Grants = z
  .strictObject({ grants: z.array(GrantView.clone().openapi("AssistantGrant")) })
  .openapi("AssistantGrants");

export const listGrants = createRoute({
  ...admin.get,
  path: "/tenants/{environment}/{client}/grants",
  operationId: "listAssistantGrants",
  summary: "The assistants connected through OAuth: each live grant, newest first (never a token)",
  request: { params: Target },
  responses: { 200: jsonAnswer("The live grants.", Grants), ...guarded(404) },
});

export const revokeGrant = createRoute({
  ...admin.delete,
  path: "/tenants/{environment}/{client}/grants/{grant}",
  operationId: "revokeAssistantGrant",
  summary: "Revoke an assistant's grant: its tokens are refused from the next request on",
  request: { params: Target.extend({ grant: GrantId }) },
  responses: {
    204: { description: "Revoked; its records in the authorization server are revoked too." },
    ...guarded(400, 404),
  },
});
