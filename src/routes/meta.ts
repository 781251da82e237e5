/**
 * @module
 * `GET /healthz`: liveness, the version, and the state of each environment (names only):
 * `unconfigured` (its keys are missing), `suspect` (its token endpoint refused several tenants'
 * keys since it last issued a token: the environment's own keys are likely wrong, see
 * `lib/rate/key-health.ts`), or `configured`.
 */
import type { z } from "@hono/zod-openapi";
import { environmentConfig, type Bindings, type Environment } from "../lib/config";
import { governorStub } from "../lib/stubs";
import { countHealthRead } from "../middleware/inbound-limit";
import { gatewayRouter } from "./contract/kit";
import { healthz, type EnvironmentState, type HealthAnswer } from "./contract/meta";

/** What `/healthz` says of one environment. */
async function environmentState(
  env: Bindings,
  environment: Environment,
): Promise<z.output<typeof EnvironmentState>> {
  if (!environmentConfig(env, environment).ok) return "unconfigured";
  return (await governorStub(env, environment).keyHealth()).suspect ? "suspect" : "configured";
}

export const metaRoutes = gatewayRouter().openapi(healthz, async (c) => {
  await countHealthRead(c);
  const [demo, production] = await Promise.all([
    environmentState(c.env, "demo"),
    environmentState(c.env, "production"),
  ]);
  return c.json(
    {
      ok: true,
      version: c.env.VERSION ?? "dev",
      environments: { demo, production },
    } satisfies HealthAnswer,
    200,
  );
});
