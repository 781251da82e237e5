/**
 * @module
 * The events routes for the operator, any tenant named by the path; an unregistered one is a 404.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayApp } from "../kernel/app";
import type { Environment } from "../kernel/config";
import { readFeed, seekTo } from "./feed";
import { feedTypes, replayWindow } from "./queries";
import { unwrap } from "../kernel/outcome";
import { endpointsAndWatcher } from "./watcher/listing";
import { asOperator, eventsStub, tenantName } from "../kernel/stubs";
import { requireAdmin } from "../tenant/door/admin-auth";
import { operatorEventContract as route } from "./contract";
import { gatewayRouter, withDefaults } from "../kernel/routes/contract-kit";

/**
 * The events object of the tenant the path names, once its registration is confirmed (else a
 * 404): none is created for a name never registered.
 */
export async function tenantEvents(
  c: { env: GatewayApp["Bindings"] },
  p: { environment: Environment; client: string },
) {
  const name = tenantName(p.environment, p.client);
  unwrap(await asOperator(c.env, name, (f) => f.registrationId()));
  return eventsStub(c.env, name);
}

const router = gatewayRouter();
router.use("*", requireAdmin);

// Typed as the plain router, as `eventRoutes` is (events/routes.ts says why).
export const adminEventRoutes: OpenAPIHono<GatewayApp> = router
  .openapi(route.createEndpoint, async (c) => {
    const events = await tenantEvents(c, c.req.valid("param"));
    return c.json(unwrap(await events.createEndpoint(c.req.valid("json"))), 201);
  })
  .openapi(route.listEndpoints, async (c) => {
    const p = c.req.valid("param");
    await tenantEvents(c, p);
    return c.json(await endpointsAndWatcher(c.env, tenantName(p.environment, p.client)), 200);
  })
  .openapi(route.getEndpoint, async (c) => {
    const p = c.req.valid("param");
    return c.json(unwrap(await (await tenantEvents(c, p)).endpoint(p.id)), 200);
  })
  .openapi(route.updateEndpoint, async (c) => {
    const p = c.req.valid("param");
    const events = await tenantEvents(c, p);
    return c.json(unwrap(await events.updateEndpoint(p.id, c.req.valid("json"))), 200);
  })
  .openapi(route.deleteEndpoint, async (c) => {
    const p = c.req.valid("param");
    unwrap(await (await tenantEvents(c, p)).deleteEndpoint(p.id));
    return c.body(null, 204);
  })
  .openapi(route.rotateSecret, async (c) => {
    const p = c.req.valid("param");
    return c.json(unwrap(await (await tenantEvents(c, p)).rotateSecret(p.id)), 200);
  })
  .openapi(route.feed, async (c) => {
    const q = c.req.valid("query");
    const events = await tenantEvents(c, c.req.valid("param"));
    return c.json(await readFeed(events, q, feedTypes(q.types)), 200);
  })
  .openapi(route.seekConsumer, async (c) => {
    const p = c.req.valid("param");
    const events = await tenantEvents(c, p);
    return c.json(unwrap(await events.seek(p.name, seekTo(c.req.valid("json")))), 200);
  })
  .openapi(route.deliveries, async (c) => {
    const p = c.req.valid("param");
    const events = await tenantEvents(c, p);
    return c.json(
      { deliveries: unwrap(await events.deliveries(p.id, c.req.valid("query").limit)) },
      200,
    );
  })
  .openapi(route.redeliver, async (c) => {
    const p = c.req.valid("param");
    const { endpoint } = withDefaults(
      route.redeliver.request.body.content["application/json"].schema,
      c.req.valid("json"),
    );
    const events = await tenantEvents(c, p);
    return c.json(unwrap(await events.redeliver(p.id, endpoint ?? null)), 202);
  })
  .openapi(route.replay, async (c) => {
    const p = c.req.valid("param");
    const { since, until } = c.req.valid("json");
    const w = replayWindow(since, until);
    const events = await tenantEvents(c, p);
    return c.json(unwrap(await events.replay(p.id, w.since, w.until)), 202);
  })
  .openapi(route.testEndpoint, async (c) => {
    const p = c.req.valid("param");
    return c.json(unwrap(await (await tenantEvents(c, p)).sendTest(p.id)), 200);
  });
