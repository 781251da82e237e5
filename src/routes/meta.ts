/**
 * @module
 * `GET /healthz`: liveness, the version, and the state of each environment (names only):
 * `unconfigured` (its keys are missing), `suspect` (its token endpoint refused several tenants' keys
 * since it last issued a token: the environment's own keys are likely wrong, see
 * `lib/rate/key-health.ts`), or `configured`.
 */
import { Hono } from "hono";
import type { GatewayApp } from "../lib/app";
import { Environment, environmentConfig, type Bindings } from "../lib/config";
import { governorStub } from "../lib/stubs";
import { countHealthRead } from "../middleware/inbound-limit";

/** What `/healthz` says of one environment. */
async function environmentState(env: Bindings, environment: Environment): Promise<"configured" | "unconfigured" | "suspect"> {
  if (!environmentConfig(env, environment).ok) return "unconfigured";
  return (await governorStub(env, environment).keyHealth()).suspect ? "suspect" : "configured";
}

export const metaRoutes = new Hono<GatewayApp>().get("/healthz", async (c) => {
  await countHealthRead(c);
  const states = await Promise.all(Environment.options.map(async (e) => [e, await environmentState(c.env, e)] as const));
  return c.json({ ok: true, version: c.env.VERSION ?? "dev", environments: Object.fromEntries(states) });
});
