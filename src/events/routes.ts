/**
 * @module
 * `/events/*` for the tenant's gateway key, authenticated first; the tenant is the key's, so
 * another tenant's endpoint or event is a 404.
 */
import type { Context } from "hono";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayApp } from "../kernel/app";
import { readFeed, seekTo } from "./feed";
import { feedTypes, replayWindow } from "./queries";
import { unwrap } from "../kernel/outcome";
import { endpointsAndWatcher } from "./watcher/listing";
import { eventsStub } from "../kernel/stubs";
import { authenticatedKey, gatewayKey } from "../tenant/door/gateway-key";
import { keyEventContract as route } from "./contract";
import { gatewayRouter, withDefaults } from "../kernel/routes/contract-kit";

/** The caller's tenant's events object (the key was authenticated first). */
const own = (c: Context<GatewayApp>) => eventsStub(c.env, c.var.caller.tenant);

const router = gatewayRouter();
router.use("*", gatewayKey(), authenticatedKey());

// Typed as the plain router: the chain's inferred route types grow past what `app.route` can
// take, and nothing reads them (the typed client is made from the OpenAPI document).
export const eventRoutes: OpenAPIHono<GatewayApp> = router
  .openapi(route.createEndpoint, async (c) =>
    c.json(unwrap(await own(c).createEndpoint(c.req.valid("json"))), 201),
  )
  .openapi(route.listEndpoints, async (c) =>
    c.json(await endpointsAndWatcher(c.env, c.var.caller.tenant), 200),
  )
  .openapi(route.getEndpoint, async (c) =>
    c.json(unwrap(await own(c).endpoint(c.req.valid("param").id)), 200),
  )
  .openapi(route.updateEndpoint, async (c) =>
    c.json(unwrap(await own(c).updateEndpoint(c.req.valid("param").id, c.req.valid("json"))), 200),
  )
  .openapi(route.deleteEndpoint, async (c) => {
    unwrap(await own(c).deleteEndpoint(c.req.valid("param").id));
    return c.body(null, 204);
  })
  .openapi(route.rotateSecret, async (c) =>
    c.json(unwrap(await own(c).rotateSecret(c.req.valid("param").id)), 200),
  )
  .openapi(route.feed, async (c) => {
    const q = c.req.valid("query");
    return c.json(await readFeed(own(c), q, feedTypes(q.types)), 200);
  })
  .openapi(route.seekConsumer, async (c) =>
    c.json(unwrap(await own(c).seek(c.req.valid("param").name, seekTo(c.req.valid("json")))), 200),
  )
  .openapi(route.deliveries, async (c) => {
    const { id } = c.req.valid("param");
    const deliveries = unwrap(await own(c).deliveries(id, c.req.valid("query").limit));
    return c.json({ deliveries }, 200);
  })
  .openapi(route.redeliver, async (c) => {
    const { endpoint } = withDefaults(
      route.redeliver.request.body.content["application/json"].schema,
      c.req.valid("json"),
    );
    return c.json(unwrap(await own(c).redeliver(c.req.valid("param").id, endpoint ?? null)), 202);
  })
  .openapi(route.replay, async (c) => {
    const { since, until } = c.req.valid("json");
    const w = replayWindow(since, until);
    return c.json(unwrap(await own(c).replay(c.req.valid("param").id, w.since, w.until)), 202);
  })
  .openapi(route.testEndpoint, async (c) =>
    c.json(unwrap(await own(c).sendTest(c.req.valid("param").id)), 200),
  );
