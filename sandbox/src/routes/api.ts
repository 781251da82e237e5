/**
 * @module
 * `{root}/v2/*` of one environment: the gate every call passes (faults, subscription key, rate
 * limit, bearer token), then the resource routers. Paths arrive lowercased (the API matches them
 * case-insensitively), so routes are registered in lowercase.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { platformOf, type SandboxApp } from "../app";
import type { Environment } from "../env";
import { delay, rejectionResponse } from "../lib/rejection";
import { customerRoutes } from "./customers";
import { bearerOf, subscriptionKeyOf } from "./guards";
import { integrationRoutes } from "./integration";

/** Admits the call or answers for the layer that refused it. */
function gate(environment: Environment): MiddlewareHandler<SandboxApp> {
  return async function gateCall(c, next) {
    const path = new URL(c.req.url).pathname.toLowerCase().replace(/^(\/demo)?\/v2/, "");
    const admission = await platformOf(c.env, environment).admit(environment, {
      subscriptionKey: subscriptionKeyOf(c.req.raw),
      bearer: bearerOf(c.req.raw),
      path,
    });
    await delay(admission.latencyMs);
    if (!admission.ok) return rejectionResponse(admission.rejection);
    c.set("environment", environment);
    c.set("clientId", admission.clientId);
    c.set("privileges", admission.privileges);
    await next();
  };
}

/** The v2 API of one environment. */
export function apiRoutes(environment: Environment) {
  const app = new Hono<SandboxApp>();
  app.use("*", gate(environment));
  app.route("/customers", customerRoutes);
  app.route("/", integrationRoutes);
  return app;
}
