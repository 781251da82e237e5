/**
 * @module `GET /healthz` with each environment's state: `suspect` when its token endpoint refused
 * several tenants' keys since its last token (its own keys are likely wrong). Also `/`, the icon.
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
  // Browsers ask for it on their own; a 404 problem for it only clutters the logs.
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
