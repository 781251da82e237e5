/**
 * @module
 * `GET /healthz`: liveness, the version, and the state of each environment (names only):
 * `unconfigured` (its keys are missing), `suspect` (its token endpoint refused several tenants'
 * keys since it last issued a token: the environment's own keys are likely wrong, see
 * `upstream/rate/key-health.ts`), or `configured`. Also `GET /`, a small page naming the gateway
 * with links to its console, docs and health, and `GET /favicon.ico`.
 */
import type { z } from "@hono/zod-openapi";
import type { Bindings, Config, Environment } from "../config";
import { governorStub } from "../stubs";
import { countHealthRead } from "../../tenant/door/inbound-limit";
import { gatewayRouter } from "./contract-kit";
import {
  favicon,
  healthz,
  landing,
  type EnvironmentState,
  type HealthAnswer,
} from "./meta-contract";
import { FAVICON_SVG, landingPage } from "./landing";

/** What `/healthz` says of one environment. */
async function environmentState(
  env: Bindings,
  config: Config,
  environment: Environment,
): Promise<z.output<typeof EnvironmentState>> {
  if (!config.environments[environment].ok) return "unconfigured";
  return (await governorStub(env, environment).keyHealth()).suspect ? "suspect" : "configured";
}

export const metaRoutes = gatewayRouter()
  .openapi(landing, (c) =>
    c.html(landingPage(c.var.config.version), 200, { "cache-control": "no-cache" }),
  )
  // Browsers ask for it on their own; a 404 problem for it only cluttered the logs.
  .openapi(favicon, (c) =>
    c.body(FAVICON_SVG, 200, {
      "content-type": "image/svg+xml",
      "cache-control": "public, max-age=86400",
    }),
  )
  .openapi(healthz, async (c) => {
    await countHealthRead(c);
    const [demo, production] = await Promise.all([
      environmentState(c.env, c.var.config, "demo"),
      environmentState(c.env, c.var.config, "production"),
    ]);
    return c.json(
      {
        ok: true,
        version: c.var.config.version,
        environments: { demo, production },
      } satisfies HealthAnswer,
      200,
    );
  });
