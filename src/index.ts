/**
 * @module
 * ledgergate: builds the Hono app from the route modules and exports the Durable Object classes.
 * Nothing else.
 */
import { Hono } from "hono";
import type { GatewayApp } from "./lib/app";
import { handleError, handleNotFound } from "./lib/problem";
import { requestId } from "./lib/request-id";
import { metaRoutes } from "./routes/meta";

const app = new Hono<GatewayApp>();

app.use("*", requestId);
app.route("/", metaRoutes);
app.notFound(handleNotFound);
app.onError(handleError);

export default app;
