/**
 * @module
 * ledgergate: the Hono app built from the route modules, and the Durable Object and Workflow
 * classes it exports.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayApp } from "./kernel/app";
import type { Bindings } from "./kernel/config";
import { consumeEvents } from "./events/consumer";
import { handleError, handleNotFound } from "./kernel/problem";
import { AccessCache } from "./upstream/access-cache";
import { withAccessCache } from "./tenant/door/access-cache";
import { capBody, MAX_PRE_AUTH_BODY_BYTES } from "./kernel/middleware/body-cap";
import { withConfig } from "./kernel/middleware/config";
import { limitFailedKeys } from "./tenant/door/failed-keys";
import { limitCallbackStates, limitOperator } from "./tenant/door/inbound-limit";
import { requestId } from "./kernel/middleware/request-id";
import { requestLog } from "./request-log/middleware";
import { webhookPrecheck } from "./orders/webhook-precheck";
import { adminRoutes } from "./tenant/admin-routes";
import { adminEventRoutes } from "./events/admin-routes";
import { adminSearchRoutes } from "./search/routes";
import { consoleRoutes } from "./console";
import { docsRoutes } from "./kernel/routes/docs";
import { eventRoutes } from "./events/routes";
import { mcpRoutes } from "./assistants/mcp-routes";
import { approvalRoutes } from "./assistants/oauth/approval-routes";
import { oauthProtocolRoutes } from "./assistants/oauth/protocol";
import { metaRoutes } from "./kernel/routes/meta";
import { onboardingRoutes } from "./onboarding/routes";
import { orderRoutes } from "./orders/routes";
import { payoutRoutes } from "./payouts/routes";
import { v2Routes } from "./v2/routes";
import { webhookRoutes } from "./orders/webhook-routes";

export { Directory } from "./tenant/directory-object";
export { Events } from "./events/events-object";
export { RateGovernor } from "./upstream/rate-governor";
export { Tenant } from "./tenant/tenant-object";
export { WatchRoster } from "./events/watcher/watch-roster";
export { Watcher } from "./events/watcher/watcher-object";
export { OrderToInvoice } from "./orders/workflow/order-to-invoice";
export { PayoutReconciliation } from "./payouts/workflow/reconciliation";

// An OpenAPIHono: mounting a router also merges its route declarations, which /openapi.json lists.
const app = new OpenAPIHono<GatewayApp>();

// The configuration first, parsed once: everything after it reads `c.var.config`.
app.use("*", withConfig);
// Isolate-lived: the verified gateway keys, and one memory of failures per kind of credential.
app.use("*", requestId, requestLog, withAccessCache(new AccessCache()));
const operator = limitOperator();
const keys = limitFailedKeys();
app.use("/admin/*", operator);
app.use("/console/*", operator, capBody(MAX_PRE_AUTH_BODY_BYTES));
// The OAuth server's bodies come before any credential is checked: capped like the console's.
app.use("/oauth/*", capBody(MAX_PRE_AUTH_BODY_BYTES));
for (const path of ["/v2/*", "/orders/*", "/events/*", "/events", "/payouts/*"])
  app.use(path, keys);
app.use("/onboarding/callback", limitCallbackStates());
app.use("/webhooks/:source/:client/:environment", webhookPrecheck);
app.route("/", metaRoutes);
app.route("/admin", adminRoutes);
app.route("/admin", adminEventRoutes);
app.route("/admin", adminSearchRoutes);
// Before /v2: /v2/openapi.json is the gateway's document, not an API call, and needs no key.
app.route("/", docsRoutes(app));
app.route("/v2", v2Routes);
app.route("/webhooks", webhookRoutes);
app.route("/orders", orderRoutes);
app.route("/", mcpRoutes);
app.route("/events", eventRoutes);
app.route("/payouts", payoutRoutes);
app.route("/", oauthProtocolRoutes);
app.route("/", approvalRoutes);
app.route("/console", consoleRoutes);
app.route("/", onboardingRoutes);
app.notFound(handleNotFound);
app.onError(handleError);

/** The Worker: the Hono app, with the consumer of the webhook delivery queues beside it. */
export default Object.assign(app, {
  queue: (batch: MessageBatch, env: Bindings) =>
    consumeEvents(batch, env, {
      // Called as `fetch`, not as a method of the deps object (workerd refuses another `this`).
      fetch: (input, init) => fetch(input, init),
    }),
});
