/**
 * @module
 * ledgergate: builds the Hono app from the route modules and exports the Durable Object and
 * Workflow classes.
 * Nothing else.
 */
import { Hono } from "hono";
import type { GatewayApp } from "./lib/app";
import { handleError, handleNotFound } from "./lib/problem";
import { AccessCache } from "./lib/upstream/access-cache";
import { withAccessCache } from "./middleware/access-cache";
import { limitFailedAuth } from "./middleware/inbound-limit";
import { requestId } from "./middleware/request-id";
import { requestLog } from "./middleware/request-log";
import { webhookPrecheck } from "./middleware/webhook-precheck";
import { adminRoutes } from "./routes/admin";
import { metaRoutes } from "./routes/meta";
import { orderRoutes } from "./routes/orders";
import { v2Routes } from "./routes/v2";
import { webhookRoutes } from "./routes/webhooks";

export { Directory } from "./durable/directory";
export { RateGovernor } from "./durable/rate-governor";
export { Tenant } from "./durable/tenant";
export { OrderToInvoice } from "./workflows/order-to-invoice";

const app = new Hono<GatewayApp>();

// The one object that lives as long as the isolate: its verified gateway keys (lib/upstream/access-cache.ts).
app.use("*", requestId, requestLog, limitFailedAuth(), withAccessCache(new AccessCache()));
app.use("/webhooks/:source/:client/:environment", webhookPrecheck);
app.route("/", metaRoutes);
app.route("/admin", adminRoutes);
app.route("/v2", v2Routes);
app.route("/webhooks", webhookRoutes);
app.route("/orders", orderRoutes);
app.notFound(handleNotFound);
app.onError(handleError);

export default app;
