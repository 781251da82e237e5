/**
 * @module
 * `GET /healthz`: liveness, the version, and the state of each environment (names only):
 * `unconfigured` (its keys are missing), `suspect` (its token endpoint refused several tenants'
 * keys since it last issued a token: the environment's own keys are likely wrong, see
 * `lib/rate/key-health.ts`), or `configured`.
 */
import type { z } from "@hono/zod-openapi";
import type { Bindings, Config, Environment } from "../lib/config";
import { governorStub } from "../lib/stubs";
import { countHealthRead } from "../middleware/inbound-limit";
import { gatewayRouter } from "./contract/kit";
import { healthz, type EnvironmentState, type HealthAnswer } from "./contract/meta";

/** What `/healthz` says of one environment. */
async function environmentState(
  env: Bindings,
  config: Config,
  environment: Environment,
): Promise<z.output<typeof EnvironmentState>> {
  if (!config.environments[environment].ok) return "unconfigured";
  return (await governorStub(env, environment).keyHealth()).suspect ? "suspect" : "configured";
}

export const metaRoutes = gatewayRouter().openapi(healthz, async (c) => {
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
